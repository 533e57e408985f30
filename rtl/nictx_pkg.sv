// SPDX-License-Identifier: Apache-2.0
// nictx_pkg: constants shared by the nictx transmit engine that are not
// the register map.
//
// TLP beat types on the device ports.  The BAR0 register map (offsets,
// fields, reset values, the PROTO values, the WC window) is nictx_reg_pkg,
// generated from rtl/regs/nictx_regs.rdl by `make regs` (docs/device.md).
package nictx_pkg;

  // TLP type on h2d_type_i / d2h_type_o.
  typedef enum logic [1:0] {
    TlpMWr  = 2'd0,
    TlpMRd  = 2'd1,
    TlpCplD = 2'd2,
    TlpCpl  = 2'd3   // completion without data: status not Successful
  } tlp_type_e;

  // The header of a TLP beat on the device ports; every beat of a TLP
  // repeats it (sim/device/device.h, struct dev_beat).
  typedef struct packed {
    logic        sop;
    logic        eop;
    tlp_type_e   kind;
    logic [7:0]  tag;
    logic [12:0] len;   // payload bytes of the whole TLP (MRd: requested)
    logic [63:0] addr;
    logic        err;   // CplD to the device: unusable data; Cpl from it: UR
  } tlp_hdr_t;

endpackage
