// SPDX-License-Identifier: Apache-2.0
// nictx_tx_top: the nictx transmit engine: up to NumQueues transmit rings,
// the tail, owner and write-combining (BlueFlame) ownership protocols,
// completion writes and MSI-X interrupts.
//
// Ports: h2d_* (host-to-device TLP beats: MWr and MRd to the 8 KiB BAR0,
// CplD for the engine's reads), d2h_* (device-to-host TLP beats, each TLP
// one beat) and wire_* (frames without FCS, the FCS with the last beat):
// DataBytes byte lanes each, data lanes following the address; valid/ready,
// valid never waits for ready, a beat holds until taken; each port passes
// a two-entry register slice.  idle_o, wait_o, wake_o and skip_i tell the
// simulator which clocks it may leave out.  sim/device/device.h is the C
// side of the same contract.
// Theory of operation: docs/device.md, "The top: nictx_tx_top".
module nictx_tx_top #(
  parameter int unsigned DataBytes    = 8,    // datapath width W: bytes per beat, 8..64
  parameter int unsigned NumTags      = 256,  // hardware tags; MAX_TAGS caps them
  parameter int unsigned DescReads    = 8,    // descriptor reads outstanding; DESC_INFLIGHT caps them
  parameter int unsigned DescBufDescs = 256,
  parameter int unsigned PayBufBytes  = 32768,  // two jumbo frames: fetch one while sending the other
  parameter int unsigned MaxPkts      = 256,
  parameter int unsigned NumQueues    = 64,   // transmit queues; QUEUES uses 1..NumQueues
  localparam int unsigned QW          = (NumQueues > 1) ? $clog2(NumQueues) : 1,
  localparam int unsigned DataW       = DataBytes * 8,
  localparam int unsigned BytesW      = $clog2(DataBytes) + 1  // wire_bytes_o: 0..W
) (
  input  logic        clk_i,
  // verilator lint_off SYNCASYNCNET
  input  logic        rst_ni,  // also in the simulation-only assertions' disable iff
  // verilator lint_on SYNCASYNCNET
  // Host to device
  input  logic        h2d_valid_i,
  output logic        h2d_ready_o,
  input  logic        h2d_sop_i,
  input  logic        h2d_eop_i,
  input  logic [1:0]  h2d_type_i,
  input  logic [nictx_pkg::TagW-1:0]    h2d_tag_i,
  input  logic [nictx_pkg::TlpLenW-1:0] h2d_len_i,
  input  logic [nictx_pkg::AddrW-1:0]   h2d_addr_i,
  input  logic [DataW-1:0] h2d_data_i,
  input  logic        h2d_err_i,
  // Device to host
  output logic        d2h_valid_o,
  input  logic        d2h_ready_i,
  output logic        d2h_sop_o,
  output logic        d2h_eop_o,
  output logic [1:0]  d2h_type_o,
  output logic [nictx_pkg::TagW-1:0]    d2h_tag_o,
  output logic [nictx_pkg::TlpLenW-1:0] d2h_len_o,
  output logic [nictx_pkg::AddrW-1:0]   d2h_addr_o,
  output logic [DataW-1:0] d2h_data_o,
  output logic        d2h_err_o,
  // Wire
  output logic        wire_valid_o,
  input  logic        wire_ready_i,
  output logic        wire_sop_o,
  output logic        wire_eop_o,
  output logic [DataW-1:0]  wire_data_o,
  output logic [BytesW-1:0] wire_bytes_o,
  output logic [nictx_pkg::FcsW-1:0] wire_fcs_o,
  output logic        idle_o,
  // Simulation speed: waiting for completions only; clocks left out before
  // this one; clocks that may be left out after it
  output logic        wait_o,
  input  logic [nictx_pkg::ClkW-1:0] skip_i,
  output logic [nictx_pkg::ClkW-1:0] wake_o
);

  localparam int unsigned LaneW    = $clog2(DataBytes);  // lane of a byte in a beat
  localparam int unsigned NumWords = DataBytes / 8;      // 8-byte words per beat
  // Read buffer byte pointers (nictx_dma_rd): the payload buffer's, which
  // also covers the descriptor buffer's.
  localparam int unsigned BufPtrW  = $clog2(PayBufBytes);
  localparam int unsigned DescPtrW = $clog2(DescBufDescs) + 4;
  // The most descriptors one fetch asks for (DESC_FETCH_MAX's greatest value;
  // c-model/cm_regs.h CM_REGS_DESC_FETCH_MAX_HW): pcie-model's 82599 fetches
  // 40 (docs/pcie.md, Descriptor prefetch).
  localparam int unsigned DescFetchMaxHw = 64;

  if (DataBytes != 8 && DataBytes != 16 && DataBytes != 32 && DataBytes != 64)
  begin : gen_width_check
    $error("nictx_tx_top: DataBytes must be 8, 16, 32 or 64");
  end
  if (DescPtrW > BufPtrW) begin : gen_ptr_check
    $error("nictx_tx_top: the descriptor buffer must not be larger than the payload buffer");
  end
  // nictx_pkg's numbers that the register map also names (nictx_pkg says
  // why they are numbers there).
  if (nictx_pkg::IdxW != nictx_reg_pkg::TailValueWidth ||
      nictx_pkg::IdxW != nictx_reg_pkg::QTailValueWidth ||
      nictx_pkg::Log2W != nictx_reg_pkg::RingLog2ValueWidth ||
      nictx_pkg::Log2W != nictx_reg_pkg::QRingLog2ValueWidth ||
      nictx_pkg::Log2W != nictx_reg_pkg::CqLog2ValueWidth ||
      nictx_pkg::Log2W != nictx_reg_pkg::QCqLog2ValueWidth ||
      nictx_pkg::MsixDataW != nictx_reg_pkg::IrqDataValueWidth ||
      nictx_pkg::MsixDataW != nictx_reg_pkg::MsixMsgDataValueWidth ||
      nictx_pkg::MaxQueues != nictx_reg_pkg::PbaLoValueWidth + nictx_reg_pkg::PbaHiValueWidth ||
      NumQueues > nictx_pkg::MaxQueues) begin : gen_pkg_width_check
    $error("nictx_tx_top: nictx_pkg's widths disagree with the register map (nictx_reg_pkg)");
  end
  if (nictx_pkg::ProtoTail != nictx_reg_pkg::ProtoTail ||
      nictx_pkg::ProtoOwner != nictx_reg_pkg::ProtoOwner ||
      nictx_pkg::ProtoWc != nictx_reg_pkg::ProtoWc) begin : gen_proto_check
    $error("nictx_tx_top: nictx_pkg::proto_e disagrees with the register map (nictx_reg_pkg)");
  end

  // ---- configuration and status ----
  logic        enable, stop, doorbell;
  // Queue reset (CTRL.RESET): the datapath's reset, one cycle long; the
  // register block and the port slices keep theirs.
  logic        qrst, core_rst_n, quiescent, engine_idle, rst_hold, wc_hold, wc_busy;
  logic [nictx_reg_pkg::CplTimeoutValueWidth-1:0] cpl_timeout;
  logic        rd_timeout, rd_unexp, rd_drained;
  nictx_pkg::proto_e proto;
  // Queue 0's registers (the single-queue completion logic's)
  logic [nictx_pkg::AddrW-1:0] ring_base, wb_addr, irq_addr, cq_base;
  logic [nictx_pkg::Log2W-1:0] ring_log2, cq_log2;
  logic [nictx_pkg::IdxW-1:0]  tail, head;
  logic [nictx_pkg::MsixDataW-1:0] irq_data;
  logic [nictx_reg_pkg::CplModeValueWidth-1:0]   cpl_mode;
  logic [nictx_reg_pkg::IrqTimerValueWidth-1:0]  irq_timer;
  logic [nictx_reg_pkg::WbThreshValueWidth-1:0]  wb_thresh;
  logic [nictx_reg_pkg::IrqThreshValueWidth-1:0] irq_thresh;
  logic [nictx_reg_pkg::MrrsLog2ValueWidth-1:0]  mrrs_log2;
  logic [nictx_reg_pkg::MpsLog2ValueWidth-1:0]   mps_log2;
  logic [nictx_reg_pkg::LineRateValueWidth-1:0]  line_rate;
  logic [nictx_reg_pkg::DescFetchMaxValueWidth-1:0] fetch_max;
  logic [nictx_reg_pkg::DescInflightValueWidth-1:0] desc_inflight;
  logic [nictx_reg_pkg::MaxTagsValueWidth-1:0]      max_tags;
  logic [nictx_reg_pkg::MaxRdBytesValueWidth-1:0]   max_rd_bytes;
  logic        rd_stall;
  logic        pkt_done, pkt_sent, bad_desc;
  logic [nictx_pkg::LenW-1:0] pkt_len;
  // Queues (NumQueues, register QUEUES)
  logic [QW-1:0] db_q, f_q, c_q, w_q, s_q, hr_q, pkt_q, desc_q, fr_q;
  logic [NumQueues-1:0] q_rdy, q_work;
  logic        multi, s_valid, desc_take;
  // Per-queue registers: the fetch queue's ring; the completing queue's
  // ring and CQ; the ring, CQ and MSI-X vector of the queue whose write
  // goes out; masks and pending bits.
  nictx_pkg::q_fetch_t f_cfg;
  nictx_pkg::q_cpl_t   c_cfg;
  nictx_pkg::q_wr_t    w_cfg;
  logic [nictx_pkg::MaxQueues-1:0] pba;
  logic [NumQueues-1:0] msix_mask;
  logic [nictx_pkg::IdxW-1:0] db_tail, hr_head;
  logic [nictx_reg_pkg::QueuesValueWidth-1:0] queues;
  logic [nictx_pkg::QLog2W-1:0] queues_log2;
  logic        sched_drr;
  logic [nictx_reg_pkg::DrrQuantumValueWidth-1:0] drr_quantum;
  logic [nictx_reg_pkg::QWeightValueWidth-1:0]    s_weight;
  logic [nictx_pkg::Log2W-1:0] s_ring_log2;
  logic        df_flush;

  // ---- port register slices ----
  // A TLP beat is a header (nictx_pkg::tlp_hdr_t) and data: W bytes in the
  // h2d slice; in the d2h slice the engine's 8-byte data word, which reaches
  // its lanes (by address) at the port.  (Yosys 0.23 takes $bits of a
  // signal, not of a type, and no package type inside a module's typedef.)
  typedef struct packed {
    logic              sop;
    logic              eop;
    logic [BytesW-1:0] bytes;
    logic [31:0]       fcs;
    logic [DataW-1:0]  data;
  } wire_beat_t;
  nictx_pkg::tlp_hdr_t h2d_hdr, d2h_hdr_in, d2h_hdr;
  wire_beat_t          wire_beat_in, wire_beat;
  localparam int unsigned HdrW  = $bits(h2d_hdr);
  localparam int unsigned H2dW  = HdrW + DataW;
  localparam int unsigned D2hW  = HdrW + 64;
  localparam int unsigned WireW = $bits(wire_beat);

  logic             h2d_valid, h2d_ready, h2d_sop;
  nictx_pkg::tlp_type_e h2d_type;
  logic [nictx_pkg::AddrW-1:0] h2d_addr;
  logic [DataW-1:0] h2d_data;
  logic [63:0]      h2d_word;  // the 8-byte word of h2d_data at h2d_addr's lanes
  logic             h2d_err;
  logic [H2dW-1:0]  h2d_rdata;
  logic             d2h_valid, d2h_ready, d2h_sop, d2h_eop;
  nictx_pkg::tlp_type_e d2h_type;
  logic [7:0]       d2h_tag;
  logic [12:0]      d2h_len;
  logic [63:0]      d2h_addr, d2h_data, d2h_slice_word;
  logic             d2h_err;
  logic [D2hW-1:0]  d2h_rdata, d2h_wdata;
  logic             wire_valid, wire_ready, wire_sop, wire_eop;
  logic [DataW-1:0] wire_data;
  logic [BytesW-1:0] wire_bytes;
  logic [31:0]      wire_fcs;
  logic [WireW-1:0] wire_rdata;
  logic [1:0]       h2d_depth, d2h_depth, wire_depth;

  prim_fifo_sync #(
    .Width (H2dW),
    .Depth (2)
  ) u_h2d_slice (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wvalid_i (h2d_valid_i),
    .wready_o (h2d_ready_o),
    .wdata_i  ({h2d_sop_i, h2d_eop_i, h2d_type_i, h2d_tag_i, h2d_len_i, h2d_err_i, h2d_addr_i,
                h2d_data_i}),  // {nictx_pkg::tlp_hdr_t, data}
    .rvalid_o (h2d_valid),
    .rready_i (h2d_ready),
    .rdata_o  (h2d_rdata),
    .depth_o  (h2d_depth)
  );
  assign {h2d_hdr, h2d_data} = h2d_rdata;
  assign h2d_sop  = h2d_hdr.sop;
  assign h2d_type = h2d_hdr.kind;
  assign h2d_addr = h2d_hdr.addr;
  assign h2d_err  = h2d_hdr.err;

  prim_fifo_sync #(
    .Width (D2hW),
    .Depth (2)
  ) u_d2h_slice (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wvalid_i (d2h_valid),
    .wready_o (d2h_ready),
    .wdata_i  (d2h_wdata),
    .rvalid_o (d2h_valid_o),
    .rready_i (d2h_ready_i),
    .rdata_o  (d2h_rdata),
    .depth_o  (d2h_depth)
  );
  // Every TLP the engine sends is one beat but a DESC_WB_FULL write.
  // (Packed only with a beat offered: the slice stores it only on a push.)
  always_comb begin
    d2h_hdr_in = '0;
    d2h_wdata  = '0;
    if (d2h_valid) begin
      d2h_hdr_in = {d2h_sop, d2h_eop, d2h_type, d2h_tag, d2h_len, d2h_err, d2h_addr};
      d2h_wdata  = {d2h_hdr_in, d2h_data};
    end
  end
  assign {d2h_hdr, d2h_slice_word} = d2h_rdata;
  assign d2h_sop_o  = d2h_hdr.sop;
  assign d2h_eop_o  = d2h_hdr.eop;
  assign d2h_type_o = d2h_hdr.kind;
  assign d2h_tag_o  = d2h_hdr.tag;
  assign d2h_len_o  = d2h_hdr.len;
  assign d2h_addr_o = d2h_hdr.addr;
  assign d2h_err_o  = d2h_hdr.err;

  // 8-byte words and W-byte beats: a register access and every TLP the
  // engine sends lies within one aligned 8-byte word, at lanes
  // (address mod W) rounded down to a multiple of 8; but a DESC_WB_FULL
  // write, whose 16-byte descriptors are each {word 1 (the slice's word),
  // word 0 = 0}: on every 16 bytes of a wide beat (the lanes outside the
  // write are not its bytes), one word a beat at W = 8 (the beat's word).
  if (DataBytes == 8) begin : gen_lanes_8
    assign h2d_word   = h2d_data;
    assign d2h_data_o = d2h_slice_word;
  end else begin : gen_lanes_wide
    logic [LaneW-4:0] h2d_wsel, d2h_wsel;  // which 8-byte word of the beat
    assign h2d_wsel   = h2d_addr[LaneW-1:3];
    assign d2h_wsel   = d2h_addr_o[LaneW-1:3];
    assign h2d_word   = h2d_data[64 * h2d_wsel +: 64];
    logic d2h_full;  // a DESC_WB_FULL write's beat
    assign d2h_full   = d2h_hdr.kind == nictx_pkg::TlpMWr && d2h_hdr.len > 13'd8;
    assign d2h_data_o = d2h_full ? {(NumWords / 2){d2h_slice_word, 64'd0}}
                                 : DataW'(d2h_slice_word) << (64 * d2h_wsel);
  end

  prim_fifo_sync #(
    .Width (WireW),
    .Depth (2)
  ) u_wire_slice (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wvalid_i (wire_valid),
    .wready_o (wire_ready),
    .wdata_i  (wire_beat_in),
    .rvalid_o (wire_valid_o),
    .rready_i (wire_ready_i),
    .rdata_o  (wire_rdata),
    .depth_o  (wire_depth)
  );
  // (Packed only with a beat offered: the slice stores it only on a push.)
  always_comb begin
    wire_beat_in = '0;
    if (wire_valid) wire_beat_in = {wire_sop, wire_eop, wire_bytes, wire_fcs, wire_data};
  end
  assign wire_beat    = wire_rdata;
  assign wire_sop_o   = wire_beat.sop;
  assign wire_eop_o   = wire_beat.eop;
  assign wire_bytes_o = wire_beat.bytes;
  assign wire_fcs_o   = wire_beat.fcs;
  assign wire_data_o  = wire_beat.data;

  // ---- host-to-device demux: CplD to the read engine, MWr to the WC
  // window to nictx_wc (always taken), the rest to the registers ----
  logic h2d_is_cpl, h2d_is_wc, h2d_wc_go, regs_req_ready, rd_cpl_ready;
  // Decoded only for a beat in the slice (every user also needs h2d_valid).
  always_comb begin
    h2d_is_cpl = 1'b0;
    h2d_is_wc  = 1'b0;
    h2d_wc_go  = 1'b0;
    h2d_ready  = 1'b0;
    if (h2d_valid) begin
      h2d_is_cpl = h2d_type == nictx_pkg::TlpCplD;
      h2d_is_wc  = h2d_type == nictx_pkg::TlpMWr && h2d_addr[12:0] < 13'h400 &&
                   h2d_addr[12:0] >= nictx_reg_pkg::WcBase;
      // A WC write starts only when no queue reset is about to fire: the
      // reset must not land inside it (wc_hold, nictx_regs).
      h2d_wc_go  = h2d_is_wc && !(wc_hold && h2d_sop);
      h2d_ready  = h2d_is_cpl ? rd_cpl_ready : (h2d_is_wc ? h2d_wc_go : regs_req_ready);
    end
  end

  // ---- device-to-host sources ----
  localparam int unsigned SrcMrd = 0, SrcRegCpl = 1, SrcWr = 2, NumSrc = 3;
  logic [NumSrc-1:0] src_valid, src_gnt;
  logic [1:0]        src_idx;
  logic              arb_valid;

  logic        mrd_valid, mrd_dest;
  logic [63:0] mrd_addr;
  logic [12:0] mrd_len;
  logic [7:0]  mrd_tag;
  logic        rcpl_valid;
  logic [7:0]  rcpl_tag;
  logic [12:0] rcpl_off;
  logic [12:0] rcpl_len;
  logic [63:0] rcpl_data;
  logic        rcpl_err;
  logic        cw_valid;
  nictx_pkg::cpl_wr_t cw;
  // The completion write's beats: a DESC_WB_FULL write (more than 8 bytes)
  // takes several, back to back, and holds the port until its last.
  logic [8:0]  wrb_d, wrb_q;  // its beats sent
  logic [9:0]  wr_beats;      // its beats at W bytes each
  logic        wr_last;       // this beat is its last
  logic        cpl_timer;

  logic regs_idle, rd_idle, df_idle, pf_idle, mac_idle, cpl_idle;
  logic rd_wait, pf_wait, df_wait, sched_wait, mac_wait;
  logic [nictx_pkg::ClkW-1:0] rd_wake, mac_wake, cpl_wake;
  logic        cpl_wait;

  // ---- write-combining window and fetcher events ----
  logic        wc_bad_access, wc_close, wc_tail_we, wc_tail_range, wc_torn;
  logic [nictx_pkg::IdxW-1:0] wc_tail;
  logic        blk_valid;
  nictx_pkg::wc_blk_t blk;
  logic        not_owned, wc_used, wc_drop;
  logic [nictx_pkg::IdxW-1:0] not_owned_cnt;

  nictx_wc #(
    .DataBytes (DataBytes)
  ) u_wc (
    .clk_i        (clk_i),
    .rst_ni       (core_rst_n),
    .proto_i      (proto),
    .ring_log2_i  (ring_log2),
    .req_valid_i  (h2d_valid && h2d_wc_go),
    .req_i        (h2d_hdr),
    .req_data_i   (h2d_data),
    .bad_access_o (wc_bad_access),
    .close_o      (wc_close),
    .tail_we_o    (wc_tail_we),
    .tail_o       (wc_tail),
    .tail_range_o (wc_tail_range),
    .torn_o       (wc_torn),
    .blk_valid_o  (blk_valid),
    .blk_o        (blk),
    .busy_o       (wc_busy)
  );

  nictx_regs #(
    .DescFetchMaxHw (DescFetchMaxHw),
    .DescReadsHw    (DescReads),
    .NumTags        (NumTags),
    .NumQueues      (NumQueues)
  ) u_regs (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .req_valid_i      (h2d_valid && !h2d_is_cpl && !h2d_is_wc),
    .req_ready_o      (regs_req_ready),
    .req_type_i       (h2d_type),
    .req_tag_i        (h2d_hdr.tag),
    .req_len_i        (h2d_hdr.len),
    .req_off_i        (h2d_addr[12:0]),
    .req_data_i       (h2d_word),
    .cpl_valid_o      (rcpl_valid),
    .cpl_ready_i      (d2h_ready && src_gnt[SrcRegCpl]),
    .cpl_tag_o        (rcpl_tag),
    .cpl_len_o        (rcpl_len),
    .cpl_off_o        (rcpl_off),
    .cpl_data_o       (rcpl_data),
    .cpl_err_o        (rcpl_err),
    .enable_o         (enable),
    .proto_o          (proto),
    .stop_o           (stop),
    .qrst_o           (qrst),
    .rst_hold_o       (rst_hold),
    .wc_hold_o        (wc_hold),
    .cpl_timeout_o    (cpl_timeout),
    .doorbell_o       (doorbell),
    .db_q_o           (db_q),
    .db_tail_o        (db_tail),
    .queues_o         (queues),
    .queues_log2_o    (queues_log2),
    .sched_drr_o      (sched_drr),
    .drr_quantum_o    (drr_quantum),
    .f_q_i            (f_q),
    .f_ring_base_o    (f_cfg.ring_base),
    .f_ring_log2_o    (f_cfg.ring_log2),
    .f_tail_o         (f_cfg.tail),
    .c_q_i            (c_q),
    .c_ring_log2_o    (c_cfg.ring_log2),
    .c_tail_o         (c_cfg.tail),
    .c_wb_addr_o      (c_cfg.wb_addr),
    .c_cq_base_o      (c_cfg.cq_base),
    .w_q_i            (w_q),
    .w_wb_addr_o      (w_cfg.wb_addr),
    .w_ring_base_o    (w_cfg.ring_base),
    .w_ring_log2_o    (w_cfg.ring_log2),
    .w_cq_base_o      (w_cfg.cq_base),
    .w_cq_log2_o      (w_cfg.cq_log2),
    .w_msix_addr_o    (w_cfg.msix_addr),
    .w_msix_data_o    (w_cfg.msix_data),
    .msix_mask_o      (msix_mask),
    .pba_i            (pba),
    .s_q_i            (s_q),
    .s_weight_o       (s_weight),
    .s_ring_log2_o    (s_ring_log2),
    .hr_q_o           (hr_q),
    .hr_head_i        (hr_head),
    .ring_base_o      (ring_base),
    .ring_log2_o      (ring_log2),
    .tail_o           (tail),
    .wb_thresh_o      (wb_thresh),
    .wb_addr_o        (wb_addr),
    .irq_thresh_o     (irq_thresh),
    .irq_data_o       (irq_data),
    .irq_addr_o       (irq_addr),
    .irq_timer_o      (irq_timer),
    .cpl_mode_o       (cpl_mode),
    .cq_base_o        (cq_base),
    .cq_log2_o        (cq_log2),
    .mrrs_log2_o      (mrrs_log2),
    .mps_log2_o       (mps_log2),
    .line_rate_o      (line_rate),
    .desc_fetch_max_o (fetch_max),
    .desc_inflight_o  (desc_inflight),
    .max_tags_o       (max_tags),
    .max_rd_bytes_o   (max_rd_bytes),
    .rd_stall_i       (rd_stall),
    .pkt_done_i       (pkt_sent),
    .pkt_len_i        (pkt_len),
    .pkt_q_i          (pkt_q),
    .desc_rd_i        (mrd_valid && d2h_ready && src_gnt[SrcMrd] && mrd_dest),
    .dma_rd_i         (mrd_valid && d2h_ready && src_gnt[SrcMrd]),
    .bad_desc_i       (bad_desc),
    .dma_err_i        (h2d_valid && h2d_is_cpl && h2d_err && !rd_unexp),
    .cpl_timeout_i    (rd_timeout),
    .unexp_cpl_i      (rd_unexp),
    .quiescent_i      (quiescent),
    .rd_drained_i     (rd_drained),
    .engine_idle_i    (engine_idle),
    .not_owned_i      (not_owned),
    .not_owned_cnt_i  (not_owned_cnt),
    .wc_bad_access_i  (wc_bad_access),
    .wc_close_i       (wc_close),
    .wc_tail_we_i     (wc_tail_we),
    .wc_tail_i        (wc_tail),
    .wc_tail_range_i  (wc_tail_range),
    .wc_torn_i        (wc_torn),
    .wc_drop_i        (wc_drop),
    .wc_used_i        (wc_used),
    .idle_o           (regs_idle)
  );

  // ---- DMA read engine ----
  logic [1:0]  rd_req_valid, rd_req_ready;  // index 0 payload, 1 descriptors
  nictx_pkg::rd_req_t   pay_req, desc_req;
  logic [BufPtrW-1:0]   pay_wptr, desc_wptr;
  logic [DescPtrW-1:0]  df_req_wptr;
  logic        rd_wr_valid, rd_wr_dest, rd_done, rd_done_dest, rd_done_err;
  logic [BufPtrW-1:0]  rd_wr_ptr;
  logic [NumWords-1:0] rd_wr_words;
  logic [DataW-1:0]    rd_wr_data;

  assign desc_wptr = BufPtrW'(df_req_wptr);

  nictx_dma_rd #(
    .NumTags   (NumTags),
    .DataBytes (DataBytes),
    .PtrW      (BufPtrW)
  ) u_dma_rd (
    .clk_i        (clk_i),
    .rst_ni       (core_rst_n),
    .mrrs_log2_i  (mrrs_log2),
    .max_tags_i   (max_tags),
    .max_rd_bytes_i (max_rd_bytes),
    .stall_o      (rd_stall),
    .req_valid_i  (rd_req_valid),
    .req_ready_o  (rd_req_ready),
    .pay_req_i    (pay_req),
    .pay_wptr_i   (pay_wptr),
    .desc_req_i   (desc_req),
    .desc_wptr_i  (desc_wptr),
    .mrd_valid_o  (mrd_valid),
    .mrd_ready_i  (d2h_ready && src_gnt[SrcMrd]),
    .mrd_addr_o   (mrd_addr),
    .mrd_len_o    (mrd_len),
    .mrd_tag_o    (mrd_tag),
    .mrd_dest_o   (mrd_dest),
    .cpl_valid_i  (h2d_valid && h2d_is_cpl),
    .cpl_ready_o  (rd_cpl_ready),
    .cpl_hdr_i    (h2d_hdr),
    .cpl_data_i   (h2d_data),
    .unexp_o      (rd_unexp),
    .cpl_timeout_i (cpl_timeout),
    .timeout_o    (rd_timeout),
    .skip_i       (skip_i),
    .wait_o       (rd_wait),
    .wake_o       (rd_wake),
    .wr_valid_o   (rd_wr_valid),
    .wr_dest_o    (rd_wr_dest),
    .wr_ptr_o     (rd_wr_ptr),
    .wr_words_o   (rd_wr_words),
    .wr_data_o    (rd_wr_data),
    .done_valid_o (rd_done),
    .done_dest_o  (rd_done_dest),
    .done_err_o   (rd_done_err),
    .drained_o    (rd_drained),
    .idle_o       (rd_idle)
  );

  // ---- descriptor fetch ----
  logic        desc_valid, desc_ready;
  nictx_pkg::desc_t desc;

  nictx_desc_fetch #(
    .BufDescs  (DescBufDescs),
    .FetchMax  (DescFetchMaxHw),
    .MaxReads  (DescReads),
    .DataBytes (DataBytes),
    .NumQueues (NumQueues)
  ) u_desc_fetch (
    .clk_i        (clk_i),
    .rst_ni       (core_rst_n),
    .enable_i     (enable),
    .queues_i     (queues),
    .queues_log2_i (queues_log2),
    .db_q_i       (db_q),
    .db_tail_i    (db_tail),
    .f_q_o        (f_q),
    .rdy_o        (q_rdy),
    .work_o       (q_work),
    .sq_i         (s_q),
    .sched_valid_i (s_valid),
    .desc_q_o     (desc_q),
    .proto_i      (proto),
    .stop_i       (stop),
    .doorbell_i   (doorbell),
    .wc_close_i   (wc_close),
    .wc_idx_valid_i (wc_tail_we),
    .wc_idx_i     (blk.idx),
    .f_cfg_i      (f_cfg),
    .h_ring_log2_i (s_ring_log2),
    .fetch_max_i  (fetch_max),
    .inflight_i   (desc_inflight),
    .blk_valid_i  (blk_valid),
    .blk_i        (blk),
    .req_valid_o  (rd_req_valid[1]),
    .req_ready_i  (rd_req_ready[1]),
    .req_o        (desc_req),
    .req_wptr_o   (df_req_wptr),
    .wr_valid_i   (rd_wr_valid && rd_wr_dest),
    .wr_ptr_i     (rd_wr_ptr[DescPtrW-1:0]),
    .wr_words_i   (rd_wr_words),
    .wr_data_i    (rd_wr_data),
    .done_i       (rd_done && rd_done_dest),
    .done_err_i   (rd_done_err),
    .desc_valid_o (desc_valid),
    .desc_ready_i (desc_ready),
    .desc_o       (desc),
    .not_owned_o  (not_owned),
    .not_owned_cnt_o (not_owned_cnt),
    .flush_o      (df_flush),
    .wc_used_o    (wc_used),
    .wc_drop_o    (wc_drop),
    .wait_o       (df_wait),
    .idle_o       (df_idle)
  );

  // ---- transmit scheduler: which queue's descriptor leaves next ----
  assign multi     = queues != 7'd1;
  assign desc_take = desc_valid && desc_ready;

  nictx_tx_sched #(
    .NumQueues (NumQueues)
  ) u_tx_sched (
    .clk_i     (clk_i),
    .rst_ni    (core_rst_n),
    .multi_i   (multi),
    .drr_i     (sched_drr),
    .quantum_i (drr_quantum),
    .rdy_i     (q_rdy),
    .backlog_i (q_work),
    .q_o       (s_q),
    .len_i     (desc.len),
    .bad_i     (desc.bad),
    .weight_i  (s_weight),
    .valid_o   (s_valid),
    .take_i    (desc_take),
    .flush_i   (df_flush),
    .wait_o    (sched_wait)
  );

  // ---- payload fetch and reassembly ----
  logic        fr_valid, fr_ready, fr_sop, fr_eop, fr_skip;
  logic [DataW-1:0]  fr_data;
  logic [BytesW-1:0] fr_bytes;
  logic [nictx_pkg::LenW-1:0] fr_len;

  nictx_payload_fetch #(
    .DataBytes (DataBytes),
    .BufBytes  (PayBufBytes),
    .MaxPkts   (MaxPkts),
    .QW        (QW)
  ) u_payload_fetch (
    .clk_i        (clk_i),
    .rst_ni       (core_rst_n),
    .desc_valid_i (desc_valid),
    .desc_ready_o (desc_ready),
    .desc_i       (desc),
    .desc_q_i     (desc_q),
    .req_valid_o  (rd_req_valid[0]),
    .req_ready_i  (rd_req_ready[0]),
    .req_o        (pay_req),
    .req_wptr_o   (pay_wptr),
    .wr_valid_i   (rd_wr_valid && !rd_wr_dest),
    .wr_ptr_i     (rd_wr_ptr),
    .wr_data_i    (rd_wr_data),
    .done_i       (rd_done && !rd_done_dest),
    .done_err_i   (rd_done_err),
    .fr_valid_o   (fr_valid),
    .fr_ready_i   (fr_ready),
    .fr_sop_o     (fr_sop),
    .fr_eop_o     (fr_eop),
    .fr_data_o    (fr_data),
    .fr_bytes_o   (fr_bytes),
    .fr_len_o     (fr_len),
    .fr_skip_o    (fr_skip),
    .fr_q_o       (fr_q),
    .bad_desc_o   (bad_desc),
    .idle_o       (pf_idle)
  );

  // ---- MAC ----
  nictx_mac #(
    .DataBytes (DataBytes),
    .QW        (QW)
  ) u_mac (
    .clk_i        (clk_i),
    .rst_ni       (core_rst_n),
    .line_rate_i  (line_rate),
    .fr_valid_i   (fr_valid && !(rst_hold && fr_sop)),  // no new frame before a reset
    .fr_ready_o   (fr_ready),
    .fr_sop_i     (fr_sop),
    .fr_eop_i     (fr_eop),
    .fr_data_i    (fr_data),
    .fr_bytes_i   (fr_bytes),
    .fr_len_i     (fr_len),
    .fr_skip_i    (fr_skip),
    .fr_q_i       (fr_q),
    .wire_valid_o (wire_valid),
    .wire_ready_i (wire_ready),
    .wire_sop_o   (wire_sop),
    .wire_eop_o   (wire_eop),
    .wire_data_o  (wire_data),
    .wire_bytes_o (wire_bytes),
    .wire_fcs_o   (wire_fcs),
    .pkt_done_o   (pkt_done),
    .pkt_len_o    (pkt_len),
    .pkt_q_o      (pkt_q),
    .skip_i       (skip_i),
    .wait_o       (mac_wait),
    .wake_o       (mac_wake),
    .idle_o       (mac_idle)
  );

  // A frame that left on the wire; pkt_done also completes skipped ones.
  assign pkt_sent = pkt_done && !(fr_valid && fr_skip);

  // ---- completions ----
  nictx_cpl #(
    .NumQueues (NumQueues)
  ) u_cpl (
    .clk_i        (clk_i),
    .rst_ni       (core_rst_n),
    .multi_i      (multi),
    .pkt_q_i      (pkt_q),
    .c_q_o        (c_q),
    .c_cfg_i      (c_cfg),
    .w_q_o        (w_q),
    .w_cfg_i      (w_cfg),
    .msix_mask_i  (msix_mask),
    .pba_o        (pba),
    .hr_q_i       (hr_q),
    .hr_head_o    (hr_head),
    .ring_log2_i  (ring_log2),
    .tail_i       (tail),
    .pkt_done_i   (pkt_done),
    .cpl_mode_i   (cpl_mode),
    .ring_base_i  (ring_base),
    .cq_base_i    (cq_base),
    .cq_log2_i    (cq_log2),
    .wb_thresh_i  (wb_thresh),
    .mps_log2_i   (mps_log2),
    .wb_addr_i    (wb_addr),
    .irq_thresh_i (irq_thresh),
    .irq_timer_i  (irq_timer),
    .irq_addr_i   (irq_addr),
    .irq_data_i   (irq_data),
    .head_o       (head),
    .wr_valid_o   (cw_valid),
    .wr_ready_i   (d2h_ready && src_gnt[SrcWr] && wr_last),
    .wr_o         (cw),
    .timer_o      (cpl_timer),
    .skip_i       (skip_i),
    .wait_o       (cpl_wait),
    .wake_o       (cpl_wake),
    .idle_o       (cpl_idle)
  );

  // ---- device-to-host arbitration (every TLP is one beat) ----
  // No new read leaves while a queue reset is pending: its tag would be
  // reissued after the reset.
  // A write of several beats keeps the port from its second beat on.
  assign src_valid = (wrb_q != '0) ? {cw_valid, 2'b00}
                                   : {cw_valid, rcpl_valid, mrd_valid && !rst_hold};
  assign wr_beats  = 10'(({{(13 - LaneW){1'b0}}, cw.addr[LaneW-1:0]} + cw.len +
                          13'(DataBytes - 1)) >> LaneW);
  assign wr_last   = {1'b0, wrb_q} + 10'd1 >= wr_beats;
  always_comb begin
    wrb_d = wrb_q;
    if (arb_valid && src_gnt[SrcWr] && d2h_ready) wrb_d = wr_last ? '0 : wrb_q + 9'd1;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wrb_q <= '0;
    else         wrb_q <= wrb_d;
  end

  prim_arbiter_rr #(
    .N (NumSrc)
  ) u_d2h_arb (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .req_i   (src_valid),
    .ready_i (d2h_ready),
    .gnt_o   (src_gnt),
    .idx_o   (src_idx),
    .valid_o (arb_valid)
  );

  always_comb begin
    // The beat's fields only with a grant (the slice stores them only then).
    d2h_valid = arb_valid;
    d2h_sop   = 1'b1;
    d2h_eop   = 1'b1;
    d2h_type  = nictx_pkg::TlpMRd;
    d2h_tag   = '0;
    d2h_len   = '0;
    d2h_addr  = '0;
    d2h_data  = '0;
    d2h_err   = 1'b0;
    if (arb_valid) unique case (src_idx)
      2'(SrcRegCpl): begin
        d2h_type = rcpl_err ? nictx_pkg::TlpCpl : nictx_pkg::TlpCplD;
        d2h_err  = rcpl_err;
        d2h_tag  = rcpl_tag;
        d2h_len  = rcpl_len;
        d2h_addr = {51'd0, rcpl_off};
        d2h_data = rcpl_data;
      end
      2'(SrcWr): begin
        d2h_type = nictx_pkg::TlpMWr;
        d2h_tag  = '0;
        d2h_len  = cw.len;
        d2h_addr = cw.addr;
        d2h_data = cw.data;
        d2h_sop  = wrb_q == '0;
        d2h_eop  = wr_last;
        // W = 8: a DESC_WB_FULL write's even beats are the descriptors' word 0
        if (DataBytes == 8 && cw.len > 13'd8 && !wrb_q[0]) d2h_data = '0;
      end
      default: begin
        d2h_tag  = mrd_tag;
        d2h_len  = mrd_len;
        d2h_addr = mrd_addr;
      end
    endcase
  end

  // idle_o: worked out below, with engine_idle.
  // As idle_o, but parts may wait for time or for completions: no state
  // changes on this clock but the read engine's completion timer, the
  // MAC's credit and the moderation timers, which follow skip_i (clocks
  // left out before this one).  Reads may be in flight; descriptors and a
  // frame may wait, the frame for credit or for its data; the payload
  // fetcher has no request, takes no descriptor, and hands the MAC no beat.
  // wake_o: the least of the parts' (how long at least).
  assign pf_wait = !rd_req_valid[0] && !desc_take && !fr_ready;
  // (The parts' waits are looked at only once the ports are quiet: on a
  // busy clock the generated code branches around them.)
  always_comb begin
    wait_o = 1'b0;
    if (!d2h_valid_o && !wire_valid_o && !h2d_valid && regs_idle) begin
      wait_o = df_wait && sched_wait && mac_wait && cpl_wait &&
               (pf_idle || pf_wait) && (rd_idle || rd_wait);
    end
  end
  assign wake_o  = (rd_wake < mac_wake) ? ((rd_wake < cpl_wake) ? rd_wake : cpl_wake) :
                                          ((mac_wake < cpl_wake) ? mac_wake : cpl_wake);
  // STATUS.IDLE: nothing in flight in the datapath (the register block, busy
  // with the read that asks, does not count).
  // STATUS.QUIESCENT: a queue reset now cuts no frame and no TLP: the MAC is
  // between frames, no device write or request is pending and both output
  // slices are empty.  The register block also waits for the DMA reads to
  // drain (rd_drained), or for the completion timeout, before it resets.
  // The register block reads both only with a reset pending (rst_hold) or
  // in a register read (h2d_valid); idle_o is engine_idle with regs_idle
  // (so no reset pending), no h2d beat and no moderation timer (it changes
  // state without host input: it waits, below).  They are worked out only
  // then, and read 0 otherwise.
  always_comb begin
    engine_idle = 1'b0;
    quiescent   = 1'b0;
    idle_o      = 1'b0;
    if (rst_hold || h2d_valid || (regs_idle && !cpl_timer)) begin
      engine_idle = rd_idle && df_idle && pf_idle && mac_idle && cpl_idle &&
                    !d2h_valid_o && !wire_valid_o;
      if (rst_hold || h2d_valid) begin
        quiescent = mac_idle && cpl_idle && !d2h_valid && !d2h_valid_o && !wire_valid_o &&
                    !wc_busy;
      end else begin
        idle_o = engine_idle;
      end
    end
  end

  // The datapath's reset: a flop output, so glitch-free; released at the
  // clock edge after qrst falls.
  // verilator lint_off SYNCASYNCNET
  assign core_rst_n = rst_ni && !qrst;
  // verilator lint_on SYNCASYNCNET

`ifndef SYNTHESIS
  // Checks at the rising edge on the values before it, as immediate
  // assertions in clocked blocks: the same as concurrent assertions sampled
  // there, but Verilator 5.006 copies every signal a concurrent assertion
  // reads at each eval() (twice a clock), which cost about a fifth of a run
  // with assertions on (docs/architecture.md, Simulation speed).  A hold
  // rule keeps the previous cycle in checker-only flops: *_hold_q, the
  // stream offered a beat that was not taken; *_past_q, that beat.
  logic h2d_hold_q, d2h_hold_q, wire_hold_q, desc_hold_q, fr_hold_q;
  logic [$bits(h2d_data_i) + 72 - 1:0] h2d_past_q;  // {data, addr, tag}
  logic [$bits(d2h_data_o) + 64 - 1:0] d2h_past_q;  // {data, addr}
  logic [$bits(wire_data_o) - 1:0]     wire_past_q;
  logic [77:0]                         desc_past_q;  // {addr, len}
  logic [$bits(fr_data):0]             fr_past_q;    // {data, sop}
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      h2d_hold_q  <= 1'b0;
      d2h_hold_q  <= 1'b0;
      wire_hold_q <= 1'b0;
    end else begin
      h2d_hold_q  <= h2d_valid_i && !h2d_ready_o;
      d2h_hold_q  <= d2h_valid_o && !d2h_ready_i;
      wire_hold_q <= wire_valid_o && !wire_ready_i;
    end
  end
  // Internal streams: a queue reset drops them.
  always @(posedge clk_i or negedge core_rst_n) begin
    if (!core_rst_n) begin
      desc_hold_q <= 1'b0;
      fr_hold_q   <= 1'b0;
    end else begin
      desc_hold_q <= !qrst && desc_valid && !desc_ready;
      fr_hold_q   <= !qrst && fr_valid && !fr_ready;
    end
  end
  always @(posedge clk_i) begin
    h2d_past_q  <= {h2d_data_i, h2d_addr_i, h2d_tag_i};
    d2h_past_q  <= {d2h_data_o, d2h_addr_o};
    wire_past_q <= wire_data_o;
    desc_past_q <= {desc.addr, desc.len};
    fr_past_q   <= {fr_data, fr_sop};
  end

  always @(posedge clk_i) begin
    if (rst_ni) begin
      // ---- port protocol (valid/ready) ----
      // The host side must hold an offered beat until it is taken.
      H2dHold_A: assert (!h2d_hold_q ||
                         (h2d_valid_i && {h2d_data_i, h2d_addr_i, h2d_tag_i} == h2d_past_q))
        else $error("nictx_tx_top: host dropped or changed an h2d beat before it was taken");
      // The engine holds its own offered beats.
      D2hHold_A: assert (!d2h_hold_q || (d2h_valid_o && {d2h_data_o, d2h_addr_o} == d2h_past_q));
      WireHold_A: assert (!wire_hold_q || (wire_valid_o && wire_data_o == wire_past_q));
      // The engine sends single-beat TLPs (data TLPs carry <= 8 bytes) but
      // DESC_WB_FULL's MWrs, whose beats leave back to back (sop, eop).
      D2hOneBeat_A: assert (!(d2h_valid && d2h_type != nictx_pkg::TlpMRd) || d2h_len <= 13'd8 ||
                            (d2h_type == nictx_pkg::TlpMWr &&
                             cpl_mode == nictx_reg_pkg::CplModeDescWbFull));
      D2hBeats_A: assert (!(d2h_valid && (!d2h_sop || !d2h_eop)) ||
                          (d2h_type == nictx_pkg::TlpMWr && src_idx == 2'(SrcWr)));
      // A completion without data is exactly an error completion of length 0.
      D2hCplIsErr_A: assert (!d2h_valid || ((d2h_type == nictx_pkg::TlpCpl) == d2h_err &&
                                            (!d2h_err || d2h_len == 13'd0)));
    end
    if (core_rst_n && !qrst) begin
      // Internal streams: descriptors and frames.
      DescHold_A: assert (!desc_hold_q || (desc_valid && {desc.addr, desc.len} == desc_past_q));
      FrameHold_A: assert (!fr_hold_q || (fr_valid && {fr_data, fr_sop} == fr_past_q));
    end
  end
`endif

`ifndef SYNTHESIS
`ifdef NICTX_COVER
  // Functional cover points, named as in sim/lib/cover.h (docs/coverage.md):
  // compiled only by make coverage (+define+NICTX_COVER, --coverage-user);
  // the C model counts the same terms (c-model/cm_engine.c, cover_sample).
  // A frame sent under each protocol and completion mode, from each queue
  // (Verilator counts the generated points as one: docs/coverage.md).
  proto_tail: cover property (@(posedge clk_i) disable iff (!rst_ni)
      pkt_sent && proto == nictx_pkg::ProtoTail);
  proto_owner: cover property (@(posedge clk_i) disable iff (!rst_ni)
      pkt_sent && proto == nictx_pkg::ProtoOwner);
  proto_wc: cover property (@(posedge clk_i) disable iff (!rst_ni)
      pkt_sent && proto == nictx_pkg::ProtoWc);
  cpl_head_wb: cover property (@(posedge clk_i) disable iff (!rst_ni)
      pkt_sent && cpl_mode == nictx_reg_pkg::CplModeHeadWb);
  cpl_desc_wb: cover property (@(posedge clk_i) disable iff (!rst_ni)
      pkt_sent && cpl_mode == nictx_reg_pkg::CplModeDescWb);
  cpl_cq: cover property (@(posedge clk_i) disable iff (!rst_ni)
      pkt_sent && cpl_mode == nictx_reg_pkg::CplModeCq);
  cpl_desc_wb_full: cover property (@(posedge clk_i) disable iff (!rst_ni)
      pkt_sent && cpl_mode == nictx_reg_pkg::CplModeDescWbFull);
  for (genvar q = 0; q < NumQueues; q++) begin : gen_cov_q
    queue_active: cover property (@(posedge clk_i) disable iff (!rst_ni)
        pkt_sent && pkt_q == QW'(q));
  end
  // A queue reset pending while the datapath has work in flight.
  reset_busy: cover property (@(posedge clk_i) disable iff (!rst_ni) rst_hold && !engine_idle);
`endif
`endif

  // verilator lint_off UNUSEDSIGNAL
  logic unused;
  assign unused = ^{h2d_addr[63:13], h2d_depth, d2h_depth, wire_depth,  // BAR0 is 8 KiB
                    head};  // queue 0's: register reads use hr_head
  // verilator lint_on UNUSEDSIGNAL

endmodule
