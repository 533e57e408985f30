// SPDX-License-Identifier: Apache-2.0
// nictx_pkg: constants shared by the nictx transmit engine that are not
// the register map.
//
// TLP beat types on the device ports.  The BAR0 register map (offsets,
// fields, reset values, the PROTO values, the WC window) is nictx_reg_pkg,
// generated from rtl/regs/nictx_regs.rdl by `make regs` (docs/device.md).
package nictx_pkg;

  // The bundles that cross modules are packed structs, the C model's
  // (c-model/*.h) field for field; a field whose width is a module's
  // parameter (a beat's data lanes, a buffer pointer, a queue index) stays
  // a port of its own, next to its bundle.  Handshakes (valid, ready) are
  // ports, never fields.  Yosys 0.23 reads no other package's names inside
  // a package, so the widths and values the register map also has are
  // numbers here; nictx_tx_top checks them against nictx_reg_pkg at
  // elaboration.  64-bit fields come last in a struct, so the simulation
  // (Verilator packs a struct into 32-bit words from its last field) reads
  // them as whole words.

  // A module uses some of these names, not all.
  // verilator lint_off UNUSEDPARAM

  // ---- Widths ----
  localparam int unsigned AddrW     = 64;  // host addresses
  localparam int unsigned WordW     = 64;  // a register access's, descriptor's or write's word
  localparam int unsigned TagW      = 8;   // TLP tags (Extended Tag Field)
  localparam int unsigned TlpLenW   = 13;  // a TLP's payload bytes (a read request's: up to 4096)
  localparam int unsigned LenW      = 14;  // a frame's or a read's bytes (a descriptor's length)
  localparam int unsigned IdxW      = 16;  // ring and CQ indices: heads, tails (TAIL)
  localparam int unsigned Log2W     = 5;   // ring and CQ sizes' log2 (RING_LOG2, CQ_LOG2)
  localparam int unsigned QLog2W    = 3;   // log2 of QUEUES rounded up to a power of two
  localparam int unsigned MaxQueues = 64;  // MSI-X vectors of the PBA (PBA_LO, PBA_HI)
  localparam int unsigned MsixDataW = 32;  // an MSI-X message's data (IRQ_DATA)
  localparam int unsigned WrLenW    = 13;  // a posted write's bytes (4, 8, or 16 x n up to the MPS)
  localparam int unsigned FcsW      = 32;  // the Ethernet FCS
  localparam int unsigned ClkW      = 24;  // clock counts: clocks left out, wake, timeouts, timers

  // verilator lint_on UNUSEDPARAM

  // TLP type on h2d_type_i / d2h_type_o.
  typedef enum logic [1:0] {
    TlpMWr  = 2'd0,
    TlpMRd  = 2'd1,
    TlpCplD = 2'd2,
    TlpCpl  = 2'd3   // completion without data: status not Successful
  } tlp_type_e;

  // Ownership protocol (register PROTO; nictx_reg_pkg::Proto*).
  typedef enum logic [1:0] {
    ProtoTail  = 2'd0,
    ProtoOwner = 2'd1,
    ProtoWc    = 2'd2
  } proto_e;

  // The header of a TLP beat on the device ports; every beat of a TLP
  // repeats it (sim/device/device.h, struct dev_beat).  Inside the engine: a host
  // beat to the registers and the WC window, a CplD to the read engine.
  typedef struct packed {
    logic              sop;
    logic              eop;
    tlp_type_e         kind;
    logic [TagW-1:0]   tag;
    logic [TlpLenW-1:0] len;  // payload bytes of the whole TLP (MRd: requested)
    logic              err;   // CplD to the device: unusable data; Cpl from it: UR
    logic [AddrW-1:0]  addr;  // CplD to the device: its lanes' address (lane = addr mod W)
  } tlp_hdr_t;

  // A whole read asked of nictx_dma_rd (struct cm_dma_rd_req); where its
  // bytes go in the requester's buffer (wptr) is a port of its own.
  typedef struct packed {
    logic [LenW-1:0]  len;
    logic [AddrW-1:0] addr;
  } rd_req_t;

  // A descriptor from nictx_desc_fetch (desc_* of struct
  // cm_desc_fetch_out); its queue is a port of its own.
  typedef struct packed {
    logic             bad;   // length field 0 or above 16383, or err
    logic             err;   // bad because its read failed (Tail)
    logic [LenW-1:0]  len;   // frame bytes (word 1)
    logic [AddrW-1:0] addr;  // buffer address (word 0)
  } desc_t;

  // A complete write-combining block from nictx_wc (blk_* of struct
  // cm_wc_out): descriptor words 0 and 1 and its ring index (word 2).
  typedef struct packed {
    logic [IdxW-1:0]  idx;
    logic [WordW-1:0] w0;
    logic [WordW-1:0] w1;
  } wc_blk_t;

  // A completion write or MSI-X message from nictx_cpl (struct cm_cpl_wr).
  typedef struct packed {
    logic [WrLenW-1:0] len;   // bytes: 4 or 8; above 8 a DESC_WB_FULL write
    logic [AddrW-1:0]  addr;
    // lanes follow addr[2]; a DESC_WB_FULL write (len > 8): descriptor word 1
    // of each of its 16-byte descriptors (word 0 is 0)
    logic [WordW-1:0]  data;
  } cpl_wr_t;

  // Per-queue state: a queue's registers as the register block's index
  // ports answer them (the f_*, c_*, w_* groups of struct
  // cm_desc_fetch_in and struct cm_cpl_in).
  // The fetch queue's (f_q):
  typedef struct packed {
    logic [Log2W-1:0] ring_log2;
    logic [IdxW-1:0]  tail;
    logic [AddrW-1:0] ring_base;
  } q_fetch_t;
  // The completing queue's (c_q):
  typedef struct packed {
    logic [Log2W-1:0] ring_log2;
    logic [IdxW-1:0]  tail;
    logic [AddrW-1:0] wb_addr;
    logic [AddrW-1:0] cq_base;
  } q_cpl_t;
  // The queue whose completion write or interrupt goes out (w_q), with
  // its MSI-X vector's message:
  typedef struct packed {
    logic [Log2W-1:0]     ring_log2;
    logic [Log2W-1:0]     cq_log2;
    logic [MsixDataW-1:0] msix_data;
    logic [AddrW-1:0]     wb_addr;
    logic [AddrW-1:0]     ring_base;
    logic [AddrW-1:0]     cq_base;
    logic [AddrW-1:0]     msix_addr;
  } q_wr_t;

endpackage
