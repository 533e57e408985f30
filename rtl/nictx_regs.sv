// SPDX-License-Identifier: Apache-2.0
// nictx_regs: BAR0 register block of the nictx transmit engine: the
// register page, the queue blocks, the MSI-X table and PBA, the doorbell,
// the error bits and the queue reset.
//
// Ports: req_* takes one-beat host MWr and MRd (4 bytes 4-aligned or 8
// bytes 8-aligned; req_ready_o low only for an MRd while a read's
// completion waits); cpl_* answers each MRd (valid never waits for ready;
// an unsupported read is answered with an Unsupported Request, cpl_err_o).
// The configuration leaves on plain outputs; per-queue registers are read
// through index ports (f_, c_, w_, s_, hr_), answered in the same cycle.
// qrst_o resets the datapath for one cycle.
// Theory of operation: docs/device.md, "Register block: nictx_regs"; the
// register map: rtl/regs/nictx_regs.rdl (docs/device.md, Registers).
module nictx_regs #(
  parameter int unsigned DescFetchMaxHw = 32,
  parameter int unsigned DescReadsHw    = 8,
  parameter int unsigned NumTags        = 256,
  parameter int unsigned NumQueues      = 64,
  localparam int unsigned QW            = (NumQueues > 1) ? $clog2(NumQueues) : 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Host request (MWr or MRd), one beat
  input  logic        req_valid_i,
  output logic        req_ready_o,
  input  logic [1:0]  req_type_i,
  input  logic [7:0]  req_tag_i,
  input  logic [12:0] req_len_i,
  input  logic [12:0] req_off_i,   // BAR0 offset
  input  logic [63:0] req_data_i,
  // Completion for MRd
  output logic        cpl_valid_o,
  input  logic        cpl_ready_i,
  output logic [7:0]  cpl_tag_o,
  output logic [12:0] cpl_len_o,
  output logic [12:0] cpl_off_o,
  output logic [63:0] cpl_data_o,
  output logic        cpl_err_o,   // Unsupported Request: no data, cpl_len_o 0
  // Configuration
  output logic        enable_o,
  output logic [1:0]  proto_o,
  output logic        stop_o,      // ErrDma or ErrCplTimeout: no new descriptor fetches
  output logic        qrst_o,      // queue reset: one cycle
  output logic        rst_hold_o,  // a queue reset is pending: start no frame, no read
  output logic        wc_hold_o,   // ... and waits no more for reads: start no WC write
  output logic [23:0] cpl_timeout_o,  // completion timeout, device cycles; 0: off
  output logic        doorbell_o,  // tail write accepted or WC block closed
  output logic [QW-1:0] db_q_o,    // ... of this queue
  output logic [15:0] db_tail_o,   // ... whose tail is now this
  output logic [6:0]  queues_o,    // QUEUES
  output logic [2:0]  queues_log2_o,  // log2 of QUEUES rounded up to a power of two
  output logic        sched_drr_o, // SCHED.MODE DRR
  output logic [16:0] drr_quantum_o,
  // Per-queue configuration read ports
  input  logic [QW-1:0] f_q_i,
  output logic [63:0] f_ring_base_o,
  output logic [4:0]  f_ring_log2_o,
  output logic [15:0] f_tail_o,
  input  logic [QW-1:0] c_q_i,
  output logic [4:0]  c_ring_log2_o,
  output logic [15:0] c_tail_o,
  output logic [63:0] c_wb_addr_o,
  output logic [63:0] c_cq_base_o,
  input  logic [QW-1:0] w_q_i,
  output logic [63:0] w_wb_addr_o,
  output logic [63:0] w_ring_base_o,
  output logic [4:0]  w_ring_log2_o,
  output logic [63:0] w_cq_base_o,
  output logic [4:0]  w_cq_log2_o,
  output logic [63:0] w_msix_addr_o,  // vector w_q_i's MSI-X message
  output logic [31:0] w_msix_data_o,
  output logic [NumQueues-1:0] msix_mask_o,  // VEC_CTRL.MASK of each vector
  input  logic [63:0] pba_i,          // pending bits (PBA_LO/HI)
  input  logic [QW-1:0] s_q_i,
  output logic [7:0]  s_weight_o,
  output logic [4:0]  s_ring_log2_o,  // the scheduler's queue's ring (its head's cons wraps there)
  // Head of a queue: hr_q_o asks, hr_head_i answers in the same cycle
  output logic [QW-1:0] hr_q_o,
  input  logic [15:0] hr_head_i,
  output logic [63:0] ring_base_o,
  output logic [4:0]  ring_log2_o,
  output logic [15:0] tail_o,
  output logic [15:0] wb_thresh_o,
  output logic [63:0] wb_addr_o,
  output logic [15:0] irq_thresh_o,
  output logic [31:0] irq_data_o,
  output logic [63:0] irq_addr_o,
  output logic [23:0] irq_timer_o,
  output logic [1:0]  cpl_mode_o,
  output logic [63:0] cq_base_o,
  output logic [4:0]  cq_log2_o,
  output logic [3:0]  mrrs_log2_o,
  output logic [23:0] line_rate_o,
  output logic [5:0]  desc_fetch_max_o,
  output logic [3:0]  desc_inflight_o,
  output logic [8:0]  max_tags_o,
  output logic [20:0] max_rd_bytes_o,
  input  logic        rd_stall_i,
  // Status and events from the engine
  input  logic        pkt_done_i,       // a frame left on the wire (not a skipped one)
  input  logic [13:0] pkt_len_i,
  input  logic [QW-1:0] pkt_q_i,        // ... of this queue
  input  logic        desc_rd_i,
  input  logic        dma_rd_i,
  input  logic        bad_desc_i,
  input  logic        dma_err_i,        // a completion with an error status arrived
  input  logic        cpl_timeout_i,    // a read's completion timed out
  input  logic        unexp_cpl_i,      // a completion for no outstanding read
  input  logic        quiescent_i,      // a queue reset now cuts no frame or TLP
  input  logic        rd_drained_i,     // every DMA read sent has all its completions
  input  logic        engine_idle_i,    // nothing in flight anywhere
  input  logic        not_owned_i,      // a not-owned flush discarded not_owned_cnt_i
  input  logic [15:0] not_owned_cnt_i,  //   descriptors
  // From the write-combining window (nictx_wc) and the fetcher
  input  logic        wc_bad_access_i,
  input  logic        wc_close_i,
  input  logic        wc_tail_we_i,
  input  logic [15:0] wc_tail_i,
  input  logic        wc_tail_range_i,
  input  logic        wc_torn_i,        // a closed block dropped (torn)
  input  logic        wc_drop_i,        // a held block dropped (stale or replaced)
  input  logic        wc_used_i,        // a held block used as a descriptor
  output logic        idle_o
);

  if (NumQueues < 1 || NumQueues > nictx_reg_pkg::QMax) begin : gen_queues_check
    $error("nictx_regs: NumQueues must be 1..QMax");
  end

  // The address bits above the 8 KiB BAR are ignored by design; the
  // harness only ever sends BAR0 offsets.
  //
  // Evaluation cost: the register block is quiet on most clocks (a doorbell
  // per burst), so its state is updated by enabled always_ff blocks that the
  // simulator branches around when nothing happens: the configuration and
  // error state only on a request or an event that touches them (reg_act),
  // each counter on its own event, the completion on a read.  Only the
  // doorbell outputs (doorbell_o, db_q_o, db_tail_o) and the read mux are
  // combinational.  In the reg_act block a register the block reads after
  // changing it has a block-local next value (the simulator would otherwise
  // keep a copy of it every clock); the others are assigned directly (few
  // block-local values also keep the compiled block small).
  logic        enable_q;
  logic [1:0]  proto_q;
  logic [nictx_reg_pkg::RegErrBits-1:0] err_q;
  logic        rst_pend_q;  // a queue reset waits for quiescence
  logic        qrst_q;
  logic        cfg_open_q;  // the ring may be (re)configured
  logic [23:0] rst_wait_q;  // cycles a pending reset waited for reads
  logic        rst_go;                  // the pending reset fires now
  logic        ring_cfg_ok;             // a ring change is accepted now
  logic        reg_act;                 // the configuration or error state may change
  logic [23:0] cpl_to_q;
  // Per-queue registers, one entry per queue (RAM-like: one write a
  // cycle), read at the queue the current access names (aq).
  logic [63:0] ring_base_m [NumQueues];
  logic [4:0]  ring_log2_m [NumQueues];
  logic [15:0] tail_m      [NumQueues];
  logic [63:0] wb_addr_m   [NumQueues];
  logic [63:0] cq_base_m   [NumQueues];
  logic [4:0]  cq_log2_m   [NumQueues];
  logic [63:0] msix_addr_m [NumQueues];  // MSI-X table, one entry per vector (= queue)
  logic [31:0] msix_data_m [NumQueues];
  logic [NumQueues-1:0] msix_mask_q;
  logic [7:0]  weight_m    [NumQueues];
  logic [31:0] qcnt_pkts_m [NumQueues];
  logic [63:0] qcnt_bytes_m [NumQueues];
  logic [NumQueues-1:0] rb_zero_q;  // queue's ring base is 0
  logic [63:0] rb0_q;  // queue 0's ring base, a copy: the datapath's assertions sample it
  logic [QW-1:0] aq, tq;                       // queue (or vector) of the access; of the tail write
  logic        blk;                            // the access is to a queue block
  logic        blk_ok;                         // ... of a queue in use
  logic        mx;                             // ... to the MSI-X table
  logic        mx_ok;                          // ... to a vector in use (< QUEUES)
  logic        pba;                            // ... to the PBA (0xC00..0xC07)
  logic        pg;                             // ... to the register page
  logic [6:0]  queues_q;
  logic [2:0]  qlog_q;  // log2 of QUEUES rounded up to a power of two
  logic        sched_q;
  logic [16:0] quantum_q;
  logic [15:0] tail_d;
  logic [15:0] wb_thresh_q;
  logic [15:0] irq_thresh_q;
  logic [23:0] irq_tmr_q;
  logic [1:0]  cpl_mode_q;
  logic [3:0]  mrrs_log2_q;
  logic [23:0] line_rate_q;
  logic [5:0]  fetch_max_q;
  logic [3:0]  inflight_q;
  logic [8:0]  max_tags_q;
  logic [20:0] max_rd_q;
  logic [31:0] cnt_stall_q;
  logic [31:0] cnt_pkts_q;
  logic [63:0] cnt_bytes_q;
  logic [31:0] cnt_db_q;
  logic [31:0] cnt_desc_rd_q;
  logic [31:0] cnt_dma_rd_q;
  logic [31:0] cnt_not_owned_q;
  logic [31:0] cnt_wc_q;
  logic [31:0] cnt_wc_drop_q;
  logic        cpl_valid_q;
  logic [7:0]  cpl_tag_q;
  logic [12:0] cpl_len_q;
  logic [12:0] cpl_off_q;
  logic [63:0] cpl_data_q;
  logic        cpl_err_q;

  // Queue 0's registers by their single-queue names (TAIL, HEAD, RING_BASE,
  // RING_LOG2, WB_ADDR in the register page) are its block's: the offset
  // in the block, and whether o is one of them.  One decode serves both.
  function automatic logic [6:0] q0_alias(logic [7:0] o);
    unique case (o)
      nictx_reg_pkg::RegTail:       q0_alias = {1'b1, nictx_reg_pkg::QRegTail};
      nictx_reg_pkg::RegHead:       q0_alias = {1'b1, nictx_reg_pkg::QRegHead};
      nictx_reg_pkg::RegRingBaseLo: q0_alias = {1'b1, nictx_reg_pkg::QRegRingBaseLo};
      nictx_reg_pkg::RegRingBaseHi: q0_alias = {1'b1, nictx_reg_pkg::QRegRingBaseHi};
      nictx_reg_pkg::RegRingLog2:   q0_alias = {1'b1, nictx_reg_pkg::QRegRingLog2};
      nictx_reg_pkg::RegWbAddrLo:   q0_alias = {1'b1, nictx_reg_pkg::QRegWbAddrLo};
      nictx_reg_pkg::RegWbAddrHi:   q0_alias = {1'b1, nictx_reg_pkg::QRegWbAddrHi};
      nictx_reg_pkg::RegCqBaseLo:   q0_alias = {1'b1, nictx_reg_pkg::QRegCqBaseLo};
      nictx_reg_pkg::RegCqBaseHi:   q0_alias = {1'b1, nictx_reg_pkg::QRegCqBaseHi};
      nictx_reg_pkg::RegCqLog2:     q0_alias = {1'b1, nictx_reg_pkg::QRegCqLog2};
      default:                      q0_alias = 7'd0;
    endcase
  endfunction

  // Likewise vector 0's MSI-X entry and the page's IRQ_ADDR and IRQ_DATA.
  function automatic logic [4:0] v0_alias(logic [7:0] o);
    unique case (o)
      nictx_reg_pkg::RegIrqAddrLo:  v0_alias = {1'b1, nictx_reg_pkg::MsixRegMsgAddrLo};
      nictx_reg_pkg::RegIrqAddrHi:  v0_alias = {1'b1, nictx_reg_pkg::MsixRegMsgAddrHi};
      nictx_reg_pkg::RegIrqData:    v0_alias = {1'b1, nictx_reg_pkg::MsixRegMsgData};
      default:                      v0_alias = 5'd0;
    endcase
  endfunction

  // What the request's offset names.  The queue (or vector) index is an
  // output every clock (hr_q_o); the rest only for a request taken.
  always_comb begin
    blk = req_off_i[12];
    mx  = req_off_i[12:10] == 3'b010;
    aq  = blk ? QW'(req_off_i[11:6]) : mx ? QW'(req_off_i[9:4]) : '0;
  end
  assign hr_q_o = aq;

  logic        acc, is_wr, is_rd, size_ok;
  logic        in_page;  // the access is to the register page, a block in use, or the PBA
  logic [1:0]  wr_en;    // dwords written by this beat
  logic        doorbell;
  always_comb begin
    acc     = req_valid_i && req_ready_o;
    pba     = 1'b0;
    pg      = 1'b0;
    blk_ok  = 1'b0;
    mx_ok   = 1'b0;
    is_wr   = 1'b0;
    is_rd   = 1'b0;
    size_ok = 1'b0;
    in_page = 1'b0;
    wr_en   = 2'b00;
    if (acc) begin
      pba     = req_off_i[12:3] == 10'h180;
      pg      = req_off_i[12:8] == 5'd0;
      blk_ok  = blk && 7'(req_off_i[11:6]) < queues_q && 32'(req_off_i[11:6]) < NumQueues;
      mx_ok   = mx && 7'(req_off_i[9:4]) < queues_q && 32'(req_off_i[9:4]) < NumQueues;
      is_wr   = req_type_i == nictx_pkg::TlpMWr;
      is_rd   = req_type_i == nictx_pkg::TlpMRd;
      size_ok = (req_len_i == 13'd4 && req_off_i[1:0] == 2'b00) ||
                (req_len_i == 13'd8 && req_off_i[2:0] == 3'b000);
      in_page = pg || blk_ok || mx_ok || pba;
      if (is_wr && size_ok && in_page) wr_en = (req_len_i == 13'd8) ? 2'b11 : 2'b01;
    end
  end

  // A write's dword at page offset o is a TAIL register (b: of a queue
  // block, p: queue 0's in the register page).
  function automatic logic tail_reg(logic b, logic p, logic [7:0] o);
    tail_reg = (b && o[5:0] == nictx_reg_pkg::QRegTail) || (p && o == nictx_reg_pkg::RegTail);
  endfunction

  // Doorbell: an accepted tail write (queue aq) or a WC block close (which
  // may move queue 0's tail).  db_tail_o is the accessed queue's tail as it
  // is written this clock (its stored value when nothing writes it).
  always_comb begin
    doorbell = 1'b0;
    tq       = aq;
    tail_d   = tail_m[aq];
    if (wr_en != 2'b00) begin
      // dword 0 at the offset (its lanes by address bit 2), dword 1 next
      if (wr_en[0] && enable_q && tail_reg(blk, pg, req_off_i[7:0]) &&
          ((req_off_i[2] ? req_data_i[63:32] : req_data_i[31:0]) >> ring_log2_m[aq]) == 32'd0) begin
        tail_d   = req_off_i[2] ? req_data_i[47:32] : req_data_i[15:0];
        doorbell = 1'b1;
      end
      if (wr_en[1] && enable_q && tail_reg(blk, pg, req_off_i[7:0] + 8'h04) &&
          (req_data_i[63:32] >> ring_log2_m[aq]) == 32'd0) begin
        tail_d   = req_data_i[47:32];
        doorbell = 1'b1;
      end
    end
    if (enable_q) begin  // (nested: the WC events only when enabled)
      if (wc_close_i) doorbell = 1'b1;
      if (wc_tail_we_i) begin
        tail_d = wc_tail_i;  // queue 0 (WC needs QUEUES 1): the only block in use
        tq     = '0;
      end
    end
    if (rst_go) tail_d = '0;
  end

  // The queues in use (0..QUEUES-1: a shift of ones, no 65-bit arithmetic)
  // and whether the rest of the configuration allows QUEUES > 1: only a
  // CTRL enable looks at them, so its branch of the write decode computes
  // them, not every clock.
  function automatic logic [NumQueues-1:0] in_use_of(logic [6:0] nq);
    in_use_of = ~({NumQueues{1'b1}} << nq);
  endfunction

  // Configuration and error state: changed only by a request, a WC event,
  // an error event or a pending queue reset.
  assign reg_act = acc || wc_bad_access_i || wc_close_i || wc_tail_range_i || bad_desc_i ||
                   dma_err_i || cpl_timeout_i || unexp_cpl_i || rst_pend_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      enable_q      <= 1'b0;
      proto_q       <= nictx_reg_pkg::ProtoTail;
      err_q         <= '0;
      rst_pend_q    <= 1'b0;
      cfg_open_q    <= 1'b1;
      rst_wait_q    <= '0;
      cpl_to_q      <= nictx_reg_pkg::CplTimeoutValueReset;
      wb_thresh_q   <= '0;
      irq_thresh_q  <= '0;
      irq_tmr_q     <= nictx_reg_pkg::IrqTimerValueReset;
      cpl_mode_q    <= nictx_reg_pkg::CplModeValueReset;
      msix_mask_q   <= '0;
      mrrs_log2_q   <= 4'd9;
      line_rate_q   <= 24'h05_0000;  // 5.0 B/cycle: 10 Gb/s at 250 MHz
      fetch_max_q   <= 6'(nictx_reg_pkg::RegDescFetchMaxReset);
      inflight_q    <= 4'(nictx_reg_pkg::RegDescInflightReset);
      max_tags_q    <= 9'd32;
      max_rd_q      <= '0;
      queues_q      <= nictx_reg_pkg::QueuesValueReset;
      qlog_q        <= '0;
      sched_q       <= nictx_reg_pkg::SchedModeReset;
      quantum_q     <= nictx_reg_pkg::DrrQuantumValueReset;
      rb_zero_q     <= '1;
      rb0_q         <= '0;
      for (int unsigned q = 0; q < NumQueues; q++) begin
        ring_base_m[q]  <= '0;
        ring_log2_m[q]  <= nictx_reg_pkg::RingLog2ValueReset;
        wb_addr_m[q]    <= '0;
        cq_base_m[q]    <= '0;
        cq_log2_m[q]    <= nictx_reg_pkg::QCqLog2ValueReset;
        msix_addr_m[q]  <= '0;
        msix_data_m[q]  <= '0;
        weight_m[q]     <= nictx_reg_pkg::QWeightValueReset;
      end
    end else if (reg_act) begin : b_reg
      // Next values (block-local) of what the block reads after changing
      // it: the error bits (set and cleared in order), the registers the
      // decode of a second dword or of an event reads, the accessed queue's
      // (vector's) entries (written by halves).  The other registers take
      // their new value directly (the last assignment wins).
      logic [nictx_reg_pkg::RegErrBits-1:0] err_n;
      logic        enable_n, rst_pend_n;
      logic [1:0]  proto_n;
      logic [6:0]  queues_n;
      logic [23:0] cpl_to_n;
      logic [NumQueues-1:0] msix_mask_n, rb_zero_n;
      logic [63:0] ring_base_n, wb_addr_n, cq_base_n, irq_addr_n;
      logic [4:0]  ring_log2_n, cq_log2_n;
      logic [31:0] irq_data_n;
      logic [7:0]  weight_n;
      err_n        = err_q;
      enable_n     = enable_q;
      rst_pend_n   = rst_pend_q;
      proto_n      = proto_q;
      queues_n     = queues_q;
      cpl_to_n     = cpl_to_q;
      msix_mask_n  = msix_mask_q;
      ring_base_n  = ring_base_m[aq];
      ring_log2_n  = ring_log2_m[aq];
      wb_addr_n    = wb_addr_m[aq];
      cq_base_n    = cq_base_m[aq];
      cq_log2_n    = cq_log2_m[aq];
      irq_addr_n   = msix_addr_m[aq];
      irq_data_n   = msix_data_m[aq];
      weight_n     = weight_m[aq];

      if ((is_wr || is_rd) && (!size_ok || !in_page)) err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
      if (wc_bad_access_i) err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;

      // Register writes: one or two dwords per beat.
      for (int unsigned k = 0; k < 2; k++) begin
        logic [7:0]  wo;   // offset within the register page
        logic [31:0] wv;
        logic [6:0]  wal;  // a queue register: {1, its offset in the block}
        logic [4:0]  wml;  // an MSI-X table register: {1, its offset in the entry}
        wo  = req_off_i[7:0] + (k == 0 ? 8'h00 : 8'h04);
        wv  = (k == 0 && !req_off_i[2]) ? req_data_i[31:0] : req_data_i[63:32];
        wal = 7'd0;
        wml = 5'd0;
        if (wr_en[k]) begin  // (decoded only for a write)
          wal = blk ? {1'b1, wo[5:0]} : pg ? q0_alias(wo) : 7'd0;
          wml = mx ? {1'b1, wo[3:0]} : pg ? v0_alias(wo) : 5'd0;
        end
        if (!wr_en[k]) begin
          // (no write: nothing to decode)
        end else if (pba) begin
          err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;  // read-only
        end else if (wml[4]) begin
          unique case (wml[3:0])
            nictx_reg_pkg::MsixRegMsgAddrLo: irq_addr_n[31:0] = {wv[31:2], 2'b00};
            nictx_reg_pkg::MsixRegMsgAddrHi: irq_addr_n[63:32] = wv;
            nictx_reg_pkg::MsixRegMsgData:   irq_data_n = wv;
            nictx_reg_pkg::MsixRegVecCtrl: begin
              if (wv[31:1] == 31'd0) msix_mask_n[aq] = wv[nictx_reg_pkg::MsixVecCtrlMask];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            default: err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
          endcase
        end else if (wal[6]) begin
          unique case (wal[5:0])
            nictx_reg_pkg::QRegTail: begin
              // (the accepted tail and its doorbell: tail_d, doorbell)
              if (!enable_q) begin
                err_n[nictx_reg_pkg::ErrDbOff] = 1'b1;
              end else if ((wv >> ring_log2_m[aq]) != 32'd0) begin
                err_n[nictx_reg_pkg::ErrTailRange] = 1'b1;
              end
            end
            nictx_reg_pkg::QRegRingBaseLo: begin
              if (!ring_cfg_ok) err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
              else ring_base_n[31:0] = {wv[31:4], 4'b0000};
            end
            nictx_reg_pkg::QRegRingBaseHi: begin
              if (!ring_cfg_ok) err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
              else ring_base_n[63:32] = wv;
            end
            nictx_reg_pkg::QRegRingLog2: begin
              if (!(wv >= 32'd3 && wv <= 32'd16)) err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
              else if (!ring_cfg_ok) err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
              else ring_log2_n = wv[4:0];
            end
            nictx_reg_pkg::QRegWeight: begin
              if (wv >= 32'd1 && wv <= 32'd255) weight_n = wv[7:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::QRegWbAddrLo:   wb_addr_n[31:0] = {wv[31:2], 2'b00};
            nictx_reg_pkg::QRegWbAddrHi:   wb_addr_n[63:32] = wv;
            nictx_reg_pkg::QRegCqBaseLo: begin
              if (!ring_cfg_ok) err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
              else cq_base_n[31:0] = {wv[31:3], 3'b000};
            end
            nictx_reg_pkg::QRegCqBaseHi: begin
              if (!ring_cfg_ok) err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
              else cq_base_n[63:32] = wv;
            end
            nictx_reg_pkg::QRegCqLog2: begin
              if (!(wv >= 32'd3 && wv <= 32'd16)) err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
              else if (!ring_cfg_ok) err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
              else cq_log2_n = wv[4:0];
            end
            default: err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;  // read-only or unknown
          endcase
        end else begin
          unique case (wo)
            nictx_reg_pkg::RegCtrl: begin
              if (wv[31:2] != 30'd0) begin
                err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
              end else if (wv[nictx_reg_pkg::CtrlReset]) begin
                // Reset only while disabled, and not together with enable.
                if (enable_q || wv[nictx_reg_pkg::CtrlEnable]) err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
                else rst_pend_n = 1'b1;
              end else if (wv[nictx_reg_pkg::CtrlEnable] && !enable_q &&
                           ((rb_zero_q & in_use_of(queues_q)) != '0 || rst_pend_q ||
                            !(queues_q == 7'd1 || proto_q != nictx_reg_pkg::ProtoWc))) begin
                // no ring, a reset still pending, or QUEUES > 1 with what it
                // does not support
                err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
              end else begin
                enable_n = wv[nictx_reg_pkg::CtrlEnable];
                if (wv[nictx_reg_pkg::CtrlEnable]) cfg_open_q <= 1'b0;  // the ring state is in use now
              end
            end
            nictx_reg_pkg::RegErr:        err_n = err_n & ~wv[nictx_reg_pkg::RegErrBits-1:0];
            nictx_reg_pkg::RegCplTimeout: begin
              if (wv[31:24] == 8'd0) cpl_to_n = wv[23:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegWbThresh: begin
              if (wv[31:16] == 16'd0) wb_thresh_q <= wv[15:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegIrqThresh: begin
              if (wv[31:16] == 16'd0) irq_thresh_q <= wv[15:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegMrrsLog2: begin
              if (wv >= 32'd7 && wv <= 32'd12) mrrs_log2_q <= wv[3:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegLineRate: begin
              if (wv[31:24] == 8'd0 && wv[23:0] != 24'd0) line_rate_q <= wv[23:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegDescInflight: begin
              if (wv >= 32'd1 && wv <= DescReadsHw) inflight_q <= wv[3:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegDescFetchMax: begin
              if (wv >= 32'd1 && wv <= DescFetchMaxHw) fetch_max_q <= wv[5:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegMaxTags: begin
              if (wv >= 32'd1 && wv <= NumTags) max_tags_q <= wv[8:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegMaxRdBytes: begin
              // 0: no limit; else at least one largest read (4096 B).
              if (wv == 32'd0 || (wv >= 32'd4096 && wv < 32'h20_0000))
                max_rd_q <= wv[20:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegIrqTimer: begin
              if (wv[31:24] == 8'd0) irq_tmr_q <= wv[23:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegCplMode: begin
              if (!(wv == {30'd0, nictx_reg_pkg::CplModeHeadWb} ||
                    wv == {30'd0, nictx_reg_pkg::CplModeDescWb} ||
                    wv == {30'd0, nictx_reg_pkg::CplModeCq})) err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
              else if (!ring_cfg_ok) err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
              else cpl_mode_q <= wv[1:0];
            end
            nictx_reg_pkg::RegProto: begin
              if (!(wv == {30'd0, nictx_reg_pkg::ProtoTail} ||
                    wv == {30'd0, nictx_reg_pkg::ProtoOwner} ||
                    wv == {30'd0, nictx_reg_pkg::ProtoWc})) err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
              else if (!ring_cfg_ok) err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
              else proto_n = wv[1:0];
            end
            nictx_reg_pkg::RegQueues: begin
              if (!(wv >= 32'd1 && wv <= NumQueues)) err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
              else if (!ring_cfg_ok) err_n[nictx_reg_pkg::ErrCfg] = 1'b1;
              else begin
                logic [2:0] qlog_n;
                qlog_n = '0;
                for (int unsigned r = 0; r < 6; r++) begin
                  if ((7'd1 << r) < wv[6:0]) qlog_n = 3'(r + 1);
                end
                queues_n = wv[6:0];
                qlog_q   <= qlog_n;
              end
            end
            nictx_reg_pkg::RegSched: begin
              if (wv[31:1] == 31'd0) sched_q <= wv[0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            nictx_reg_pkg::RegDrrQuantum: begin
              if (wv >= 32'd64 && wv <= 32'd65536) quantum_q <= wv[16:0];
              else err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;
            end
            default: err_n[nictx_reg_pkg::ErrBadAccess] = 1'b1;  // read-only or unknown
          endcase
        end
      end

      // Write-combining block close while disabled; a WC tail beyond the ring.
      if (wc_close_i && !enable_q) err_n[nictx_reg_pkg::ErrDbOff] = 1'b1;
      if (wc_tail_range_i) err_n[nictx_reg_pkg::ErrTailRange] = 1'b1;
      if (bad_desc_i) err_n[nictx_reg_pkg::ErrBadDesc] = 1'b1;
      if (dma_err_i)  err_n[nictx_reg_pkg::ErrDma] = 1'b1;
      if (cpl_timeout_i) err_n[nictx_reg_pkg::ErrCplTimeout] = 1'b1;
      if (unexp_cpl_i) err_n[nictx_reg_pkg::ErrUnexpCpl] = 1'b1;

      // A pending queue reset fires once nothing can be cut and no completion
      // can still come (or the completion timeout has passed): the datapath
      // is reset next cycle (qrst_q); the tail and the error state are
      // cleared now.
      if (rst_pend_q && !rst_go && rst_wait_q != cpl_to_q) rst_wait_q <= rst_wait_q + 24'd1;
      if (rst_go) begin
        rst_pend_n = 1'b0;
        err_n      = '0;
        cfg_open_q <= 1'b1;
        rst_wait_q <= '0;
      end

      err_q        <= err_n;
      enable_q     <= enable_n;
      rst_pend_q   <= rst_pend_n;
      proto_q      <= proto_n;
      queues_q     <= queues_n;
      cpl_to_q     <= cpl_to_n;
      msix_mask_q  <= msix_mask_n;
      // The accessed queue's (vector's) entries: written only by a register
      // write (ring_base differs from the entry only then).
      if (wr_en != 2'b00) begin
        rb_zero_n       = rb_zero_q;
        rb_zero_n[aq]   = ring_base_n == 64'd0;
        rb_zero_q       <= rb_zero_n;
        if (aq == '0) rb0_q <= ring_base_n;
        ring_base_m[aq] <= ring_base_n;
        ring_log2_m[aq] <= ring_log2_n;
        wb_addr_m[aq]   <= wb_addr_n;
        cq_base_m[aq]   <= cq_base_n;
        cq_log2_m[aq]   <= cq_log2_n;
        msix_addr_m[aq] <= irq_addr_n;
        msix_data_m[aq] <= irq_data_n;
        weight_m[aq]    <= weight_n;
      end
    end
  end

  // Register read mux: both dwords of the aligned 8-byte word, decoded only
  // for a read taken (is_rd).
  logic [31:0] rd_lo, rd_hi;
  always_comb begin
    logic [31:0] v;
    logic [7:0]  o;
    logic [6:0]  al;
    logic [4:0]  ml;
    rd_lo = 32'd0;
    rd_hi = 32'd0;
    v     = 32'd0;
    o     = 8'd0;
    al    = 7'd0;
    ml    = 5'd0;
    // Only a register read takes the mux's value: nothing of it is worked
    // out on other clocks (the model runs a function call even in a
    // ternary's other arm, so the aliases are decoded here too).
    if (is_rd) begin
    for (int unsigned k = 0; k < 2; k++) begin
      o  = {req_off_i[7:3], 3'b000} | (k == 0 ? 8'h00 : 8'h04);
      al = blk ? {1'b1, o[5:0]} : pg ? q0_alias(o) : 7'd0;
      ml = mx ? {1'b1, o[3:0]} : pg ? v0_alias(o) : 5'd0;
      v  = 32'd0;
      if (pba) begin
        v = k == 0 ? pba_i[31:0] : pba_i[63:32];
      end else if (ml[4]) begin
        unique case (ml[3:0])
          nictx_reg_pkg::MsixRegMsgAddrLo: v = msix_addr_m[aq][31:0];
          nictx_reg_pkg::MsixRegMsgAddrHi: v = msix_addr_m[aq][63:32];
          nictx_reg_pkg::MsixRegMsgData:   v = msix_data_m[aq];
          nictx_reg_pkg::MsixRegVecCtrl:   v = {31'd0, msix_mask_q[aq]};
          default:                         v = 32'd0;
        endcase
      end else if (al[6]) begin
        unique case (al[5:0])
          nictx_reg_pkg::QRegTail:        v = {16'd0, tail_m[aq]};
          nictx_reg_pkg::QRegHead:        v = {16'd0, hr_head_i};
          nictx_reg_pkg::QRegRingBaseLo:  v = ring_base_m[aq][31:0];
          nictx_reg_pkg::QRegRingBaseHi:  v = ring_base_m[aq][63:32];
          nictx_reg_pkg::QRegRingLog2:    v = {27'd0, ring_log2_m[aq]};
          nictx_reg_pkg::QRegWeight:      v = {24'd0, weight_m[aq]};
          nictx_reg_pkg::QRegWbAddrLo:    v = wb_addr_m[aq][31:0];
          nictx_reg_pkg::QRegWbAddrHi:    v = wb_addr_m[aq][63:32];
          nictx_reg_pkg::QRegCntPkts:     v = qcnt_pkts_m[aq];
          nictx_reg_pkg::QRegCntBytesLo:  v = qcnt_bytes_m[aq][31:0];
          nictx_reg_pkg::QRegCntBytesHi:  v = qcnt_bytes_m[aq][63:32];
          nictx_reg_pkg::QRegCqBaseLo:    v = cq_base_m[aq][31:0];
          nictx_reg_pkg::QRegCqBaseHi:    v = cq_base_m[aq][63:32];
          nictx_reg_pkg::QRegCqLog2:      v = {27'd0, cq_log2_m[aq]};
          default:                        v = 32'd0;
        endcase
      end else begin
        unique case (o)
          nictx_reg_pkg::RegCtrl:         v = {31'd0, enable_q};
          nictx_reg_pkg::RegErr:          v = {{(32 - nictx_reg_pkg::RegErrBits){1'b0}}, err_q};
          nictx_reg_pkg::RegWbThresh:     v = {16'd0, wb_thresh_q};
          nictx_reg_pkg::RegIrqThresh:    v = {16'd0, irq_thresh_q};
          nictx_reg_pkg::RegMrrsLog2:     v = {28'd0, mrrs_log2_q};
          nictx_reg_pkg::RegLineRate:     v = {8'd0, line_rate_q};
          nictx_reg_pkg::RegCntPkts:      v = cnt_pkts_q;
          nictx_reg_pkg::RegCntBytesLo:   v = cnt_bytes_q[31:0];
          nictx_reg_pkg::RegCntBytesHi:   v = cnt_bytes_q[63:32];
          nictx_reg_pkg::RegCntDoorbell:  v = cnt_db_q;
          nictx_reg_pkg::RegCntDescRd:    v = cnt_desc_rd_q;
          nictx_reg_pkg::RegCntDmaRd:     v = cnt_dma_rd_q;
          nictx_reg_pkg::RegId:           v = nictx_reg_pkg::RegIdReset;
          nictx_reg_pkg::RegDescFetchMax: v = {26'd0, fetch_max_q};
          nictx_reg_pkg::RegMaxTags:      v = {23'd0, max_tags_q};
          nictx_reg_pkg::RegMaxRdBytes:   v = {11'd0, max_rd_q};
          nictx_reg_pkg::RegCntRdStall:   v = cnt_stall_q;
          nictx_reg_pkg::RegProto:        v = {30'd0, proto_q};
          nictx_reg_pkg::RegCntNotOwned:  v = cnt_not_owned_q;
          nictx_reg_pkg::RegCntWc:        v = cnt_wc_q;
          nictx_reg_pkg::RegCntWcDrop:    v = cnt_wc_drop_q;
          nictx_reg_pkg::RegStatus: begin
            v = 32'd0;
            v[nictx_reg_pkg::StatusQuiescent] = quiescent_i && rd_drained_i;
            v[nictx_reg_pkg::StatusIdle]      = engine_idle_i;
            v[nictx_reg_pkg::StatusResetting] = rst_pend_q || qrst_q;
          end
          nictx_reg_pkg::RegCplTimeout:   v = {8'd0, cpl_to_q};
          nictx_reg_pkg::RegDescInflight: v = {28'd0, inflight_q};
          nictx_reg_pkg::RegCplMode:      v = {30'd0, cpl_mode_q};
          nictx_reg_pkg::RegIrqTimer:     v = {8'd0, irq_tmr_q};
          nictx_reg_pkg::RegQueues:       v = {25'd0, queues_q};
          nictx_reg_pkg::RegSched:        v = {31'd0, sched_q};
          nictx_reg_pkg::RegDrrQuantum:   v = {15'd0, quantum_q};
          default:                        v = 32'd0;
        endcase
      end
      if (k == 0) rd_lo = v;
      else        rd_hi = v;
    end
    end
  end

  // Completion for a register read (one outstanding).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cpl_valid_q <= 1'b0;
      cpl_tag_q   <= '0;
      cpl_len_q   <= '0;
      cpl_off_q   <= '0;
      cpl_data_q  <= '0;
      cpl_err_q   <= 1'b0;
    end else begin
      if (cpl_valid_q && cpl_ready_i) cpl_valid_q <= 1'b0;
      if (is_rd) begin
        cpl_valid_q <= 1'b1;
        cpl_tag_q   <= req_tag_i;
        cpl_len_q   <= (size_ok && in_page) ? req_len_i : 13'd0;
        cpl_off_q   <= req_off_i;
        cpl_data_q  <= (size_ok && in_page) ? {rd_hi, rd_lo} : 64'd0;
        cpl_err_q   <= !(size_ok && in_page);
      end
    end
  end

  // The queue reset pulse: one cycle after the reset fired.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) qrst_q <= 1'b0;
    else         qrst_q <= rst_go;
  end

  // Counters: each on its own event.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_stall_q     <= '0;
      cnt_pkts_q      <= '0;
      cnt_bytes_q     <= '0;
      cnt_db_q        <= '0;
      cnt_desc_rd_q   <= '0;
      cnt_dma_rd_q    <= '0;
      cnt_not_owned_q <= '0;
      cnt_wc_q        <= '0;
      cnt_wc_drop_q   <= '0;
    end else begin
      if (doorbell)   cnt_db_q <= cnt_db_q + 32'd1;
      if (pkt_done_i) begin
        cnt_pkts_q  <= cnt_pkts_q + 32'd1;
        cnt_bytes_q <= cnt_bytes_q + {50'd0, pkt_len_i};
      end
      if (desc_rd_i)   cnt_desc_rd_q <= cnt_desc_rd_q + 32'd1;
      if (dma_rd_i)    cnt_dma_rd_q <= cnt_dma_rd_q + 32'd1;
      if (rd_stall_i)  cnt_stall_q <= cnt_stall_q + 32'd1;
      if (not_owned_i) cnt_not_owned_q <= cnt_not_owned_q + {16'd0, not_owned_cnt_i};
      if (wc_used_i)   cnt_wc_q <= cnt_wc_q + 32'd1;
      if (wc_torn_i || wc_drop_i)
        cnt_wc_drop_q <= cnt_wc_drop_q + {31'd0, wc_torn_i} + {31'd0, wc_drop_i};
    end
  end

  // Ring configuration is accepted only in the ring's reset state.
  assign ring_cfg_ok = cfg_open_q && !rst_pend_q;
  // Once the reads no longer hold it, the reset waits only for the
  // datapath; a WC write starting then could delay it without end.  Before
  // that, WC writes (posted) must still pass: completions queue behind them
  // on the h2d port, and holding posted writes until completions arrive
  // would deadlock (PCIe ordering lets posted requests pass completions,
  // never the reverse).
  logic rd_waited;
  assign rd_waited   = rd_drained_i || rst_wait_q >= cpl_to_q;
  assign rst_go      = rst_pend_q && quiescent_i && rd_waited;
  assign wc_hold_o   = (rst_pend_q && rd_waited) || qrst_q;

  // One read outstanding: a new MRd waits until the last completion left.
  assign req_ready_o = !(req_type_i == nictx_pkg::TlpMRd && cpl_valid_q);
  assign cpl_valid_o = cpl_valid_q;
  assign cpl_tag_o   = cpl_tag_q;
  assign cpl_len_o   = cpl_len_q;
  assign cpl_off_o   = cpl_off_q;
  assign cpl_data_o  = cpl_data_q;
  assign cpl_err_o   = cpl_err_q;
  assign idle_o      = !cpl_valid_q && !rst_pend_q && !qrst_q;

  assign enable_o         = enable_q;
  assign proto_o          = proto_q;
  assign stop_o           = err_q[nictx_reg_pkg::ErrDma] || err_q[nictx_reg_pkg::ErrCplTimeout];
  assign qrst_o           = qrst_q;
  assign rst_hold_o       = rst_pend_q || qrst_q;
  assign cpl_timeout_o    = cpl_to_q;
  assign doorbell_o       = doorbell;
  assign ring_base_o      = rb0_q;
  assign ring_log2_o      = ring_log2_m[0];
  assign tail_o           = tail_m[0];
  assign db_q_o           = tq;
  assign db_tail_o        = tail_d;
  assign queues_o         = queues_q;
  assign queues_log2_o    = qlog_q;
  assign sched_drr_o      = sched_q == nictx_reg_pkg::SchedDrr;
  assign drr_quantum_o    = quantum_q;
  assign f_ring_base_o    = ring_base_m[f_q_i];
  assign f_ring_log2_o    = ring_log2_m[f_q_i];
  assign f_tail_o         = tail_m[f_q_i];
  assign c_ring_log2_o    = ring_log2_m[c_q_i];
  assign c_tail_o         = tail_m[c_q_i];
  assign c_wb_addr_o      = wb_addr_m[c_q_i];
  assign c_cq_base_o      = cq_base_m[c_q_i];
  assign w_wb_addr_o      = wb_addr_m[w_q_i];
  assign w_ring_base_o    = ring_base_m[w_q_i];
  assign w_ring_log2_o    = ring_log2_m[w_q_i];
  assign w_cq_base_o      = cq_base_m[w_q_i];
  assign w_cq_log2_o      = cq_log2_m[w_q_i];
  assign w_msix_addr_o    = msix_addr_m[w_q_i];
  assign w_msix_data_o    = msix_data_m[w_q_i];
  assign msix_mask_o      = msix_mask_q;
  assign s_weight_o       = weight_m[s_q_i];
  assign s_ring_log2_o    = ring_log2_m[s_q_i];
  assign wb_thresh_o      = wb_thresh_q;
  assign wb_addr_o        = wb_addr_m[0];
  assign irq_thresh_o     = irq_thresh_q;
  assign irq_data_o       = msix_data_m[0];
  assign irq_addr_o       = msix_addr_m[0];
  assign irq_timer_o      = irq_tmr_q;
  assign cpl_mode_o       = cpl_mode_q;
  assign cq_base_o        = cq_base_m[0];
  assign cq_log2_o        = cq_log2_m[0];
  assign mrrs_log2_o      = mrrs_log2_q;
  assign line_rate_o      = line_rate_q;
  assign desc_fetch_max_o = fetch_max_q;
  assign desc_inflight_o  = inflight_q;
  assign max_tags_o       = max_tags_q;
  assign max_rd_bytes_o   = max_rd_q;

  // Per-queue tails and counters: one write a cycle each (the access's or
  // the WC window's queue, or the sent frame's for the counters); a queue
  // reset clears every tail.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned q = 0; q < NumQueues; q++) begin
        tail_m[q]       <= '0;
        qcnt_pkts_m[q]  <= '0;
        qcnt_bytes_m[q] <= '0;
      end
    end else begin
      if (rst_go) begin
        for (int unsigned q = 0; q < NumQueues; q++) tail_m[q] <= '0;
      end else if (wr_en != 2'b00 || wc_tail_we_i) begin
        tail_m[tq] <= tail_d;
      end
      if (pkt_done_i) begin
        qcnt_pkts_m[pkt_q_i]  <= qcnt_pkts_m[pkt_q_i] + 32'd1;
        qcnt_bytes_m[pkt_q_i] <= qcnt_bytes_m[pkt_q_i] + {50'd0, pkt_len_i};
      end
    end
  end

endmodule
