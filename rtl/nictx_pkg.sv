// SPDX-License-Identifier: Apache-2.0
// nictx_pkg: constants shared by the nictx transmit engine that are not
// the register map.
//
// TLP beat types on the device ports.  The BAR0 register map (offsets,
// fields, reset values, the PROTO values, the WC window) is nictx_reg_pkg,
// generated from rtl/regs/nictx_regs.rdl by `make regs` (docs/device.md).
package nictx_pkg;

  // TLP type on h2d_type_i / d2h_type_o.
  localparam logic [1:0] TlpMWr  = 2'd0;
  localparam logic [1:0] TlpMRd  = 2'd1;
  localparam logic [1:0] TlpCplD = 2'd2;
  localparam logic [1:0] TlpCpl  = 2'd3;  // completion without data: status not Successful

endpackage
