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
// qrst_o resets the datapath for one cycle.  Decode, reset values and the
// rule each written value is checked against (range, the ERR bit it sets,
// refused while disabled, ring configuration) come from the register table
// generated from rtl/regs/nictx_regs.rdl (nictx_reg_pkg: reg_rid, rid_*).
// Theory of operation: docs/device.md, "Register block: nictx_regs"; the
// register map: rtl/regs/nictx_regs.rdl (docs/device.md, Registers).
module nictx_regs #(
  parameter int unsigned DescFetchMaxHw = 64,
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
  output logic [nictx_reg_pkg::MpsLog2ValueWidth-1:0] mps_log2_o,
  output logic [23:0] line_rate_o,
  output logic [nictx_reg_pkg::DescFetchMaxValueWidth-1:0] desc_fetch_max_o,
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
  // The register map bounds DESC_FETCH_MAX, DESC_INFLIGHT, MAX_TAGS and
  // QUEUES by these parameters (max_param): each must fit its field.
  localparam bit BoundsFit = nictx_reg_pkg::hw_params_fit(DescFetchMaxHw, DescReadsHw,
                                                          NumQueues, NumTags);
  if (!BoundsFit) begin : gen_bounds_check
    $error("nictx_regs: a parameter that bounds a register does not fit its field");
  end

  // The address bits above the 8 KiB BAR are ignored by design; the
  // harness only ever sends BAR0 offsets.
  //
  // Structure: the decode of an access and the check of each written dword
  // come from the register table generated from rtl/regs/nictx_regs.rdl
  // (nictx_reg_pkg: reg_rid() names the register of a dword, the rid_*
  // functions give its write mask, legal range and refusal rule); what a
  // register does once a write is taken is below, by register id, in small
  // blocks: the error bits, control and reset sequencing, the configuration
  // registers, the accessed queue's (vector's) entries, the tails, the
  // counters, the read mux and the completion.
  //
  // Evaluation cost: the register block is quiet on most clocks (a doorbell
  // per burst), so its state is updated by enabled always_ff blocks that the
  // simulator branches around when nothing happens: the error and control
  // state only on a request or an event that touches them (reg_act), the
  // configuration and the entries only on a register write, each counter on
  // its own event, the completion on a read.  The decodes are worked out
  // only for the access that needs them (a write, a read); only the
  // doorbell outputs (doorbell_o, db_q_o, db_tail_o) and the read mux are
  // combinational outputs.
  localparam int unsigned RidW = nictx_reg_pkg::RidW;
  localparam int unsigned ErrW = nictx_reg_pkg::RegErrBits;
  localparam int unsigned IdxW = $clog2(nictx_reg_pkg::QMax);  // a block's or vector's index

  logic        enable_q;
  logic [1:0]  proto_q;
  logic [ErrW-1:0] err_q;
  logic        rst_pend_q;  // a queue reset waits for quiescence
  logic        qrst_q;
  logic        cfg_open_q;  // the ring may be (re)configured
  logic [23:0] rst_wait_q;  // cycles a pending reset waited for reads
  logic        rst_go;                  // the pending reset fires now
  logic        ring_cfg_ok;             // a ring change is accepted now
  logic        reg_act;                 // the error or control state may change
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
  logic [IdxW-1:0] bq, mv;                     // the block's, the vector's index in the offset
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
  logic [nictx_reg_pkg::MpsLog2ValueWidth-1:0] mps_log2_q;
  logic [23:0] line_rate_q;
  logic [nictx_reg_pkg::DescFetchMaxValueWidth-1:0] fetch_max_q;
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

  // ---------------------------------------------------------------- decode

  // What the request's offset names.  The queue (or vector) index is an
  // output every clock (hr_q_o); the rest only for a request taken.
  always_comb begin
    bq  = nictx_reg_pkg::q_index(req_off_i);
    mv  = nictx_reg_pkg::msix_index(req_off_i);
    blk = nictx_reg_pkg::q_hit(req_off_i);
    mx  = nictx_reg_pkg::msix_hit(req_off_i);
    aq  = blk ? QW'(bq) : mx ? QW'(mv) : '0;
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
      pba     = nictx_reg_pkg::pba_hit(req_off_i);
      pg      = nictx_reg_pkg::page_hit(req_off_i);
      blk_ok  = blk && 7'(bq) < queues_q && 32'(bq) < NumQueues;
      mx_ok   = mx && 7'(mv) < queues_q && 32'(mv) < NumQueues;
      is_wr   = req_type_i == nictx_pkg::TlpMWr;
      is_rd   = req_type_i == nictx_pkg::TlpMRd;
      size_ok = (req_len_i == 13'd4 && req_off_i[1:0] == 2'b00) ||
                (req_len_i == 13'd8 && req_off_i[2:0] == 3'b000);
      in_page = pg || blk_ok || mx_ok || pba;
      if (is_wr && size_ok && in_page) wr_en = (req_len_i == 13'd8) ? 2'b11 : 2'b01;
    end
  end

  // The register table's rule for a written dword: the ERR bits that refuse
  // a write of v to register rid, in the table's order (read-only or no
  // register; written while disabled; out of range; ring configuration
  // closed); 0: taken.  en: CTRL.ENABLE; cfg_ok: the ring configuration is
  // open; lg: the accessed queue's RING_LOG2 (a bound of TAIL).
  function automatic logic [ErrW-1:0] refusal(logic [RidW-1:0] rid, logic [31:0] v, logic en,
                                              logic cfg_ok, logic [4:0] lg);
    refusal = '0;
    if (nictx_reg_pkg::rid_ro(rid)) begin
      refusal[nictx_reg_pkg::ErrBadAccess] = 1'b1;
    end else if (nictx_reg_pkg::rid_off_err(rid) != '0 && !en) begin
      refusal = nictx_reg_pkg::rid_off_err(rid);
    end else if (!((nictx_reg_pkg::rid_zero_ok(rid) && v == 32'd0) ||
                   (v >= nictx_reg_pkg::rid_min(rid) &&
                    v <= nictx_reg_pkg::rid_max(rid, DescFetchMaxHw, DescReadsHw, NumQueues,
                                                NumTags, lg)))) begin
      refusal = nictx_reg_pkg::rid_range_err(rid);
    end else if (nictx_reg_pkg::rid_cfg_lock(rid) && !cfg_ok) begin
      refusal[nictx_reg_pkg::ErrCfg] = 1'b1;
    end
  endfunction

  // The queues in use (0..QUEUES-1: a shift of ones, no 65-bit arithmetic).
  function automatic logic [NumQueues-1:0] in_use_of(logic [6:0] nq);
    in_use_of = ~({NumQueues{1'b1}} << nq);
  endfunction

  // CTRL's own refusals (ERR.CFG), for a write the table takes: a reset
  // while enabled or together with enable; an enable with a ring base 0 in
  // use, a reset still pending, or QUEUES > 1 with what it does not support.
  function automatic logic ctrl_refused(logic [31:0] v, logic en, logic pend,
                                        logic [NumQueues-1:0] rb_zero, logic [6:0] nq,
                                        logic [1:0] proto);
    if (v[nictx_reg_pkg::CtrlReset]) begin
      ctrl_refused = en || v[nictx_reg_pkg::CtrlEnable];
    end else begin
      ctrl_refused = v[nictx_reg_pkg::CtrlEnable] && !en &&
                     ((rb_zero & in_use_of(nq)) != '0 || pend ||
                      !(nq == 7'd1 || proto != nictx_reg_pkg::ProtoWc));
    end
  endfunction

  // The dwords of a write beat: k = 0 at the offset, k = 1 the next (an
  // 8-byte beat).  For each, the register it names (w_rid), its value
  // masked to the register's fields (w_val), the ERR bits that refuse it
  // (w_ref) and whether it is taken (w_take).  Worked out only for a write.
  logic [2*RidW-1:0] w_rid;
  logic [63:0]       w_val;
  logic [2*ErrW-1:0] w_ref;
  logic [1:0]        w_take;
  always_comb begin
    logic [RidW-1:0] rid;
    logic [31:0]     v;
    logic [ErrW-1:0] rf;
    w_rid  = {2{nictx_reg_pkg::RidNone}};
    w_val  = '0;
    w_ref  = '0;
    w_take = 2'b00;
    rid    = nictx_reg_pkg::RidNone;
    v      = 32'd0;
    rf     = '0;
    if (wr_en != 2'b00) begin
      for (int unsigned k = 0; k < 2; k++) begin
        // dword 0 at the offset (its lanes by address bit 2), dword 1 next
        rid = nictx_reg_pkg::reg_rid({req_off_i[12:3], k == 0 ? req_off_i[2] : 1'b1, 2'b00});
        v   = (k == 0 && !req_off_i[2]) ? req_data_i[31:0] : req_data_i[63:32];
        rf  = '0;
        if (wr_en[k]) begin
          rf = refusal(rid, v, enable_q, ring_cfg_ok, ring_log2_m[aq]);
          if (rf == '0 && rid == nictx_reg_pkg::RidCtrl &&
              ctrl_refused(v, enable_q, rst_pend_q, rb_zero_q, queues_q, proto_q)) begin
            rf[nictx_reg_pkg::ErrCfg] = 1'b1;
          end
          w_rid[k*RidW +: RidW] = rid;
          w_val[k*32 +: 32]     = v & nictx_reg_pkg::rid_mask(rid);
          w_ref[k*ErrW +: ErrW] = rf;
          w_take[k]             = rf == '0;
        end
      end
    end
  end

  // ---------------------------------------------------------------- the error bits

  // Error and control state: changed only by a request, a WC event, an
  // error event or a pending queue reset.
  assign reg_act = acc || wc_bad_access_i || wc_close_i || wc_tail_range_i || bad_desc_i ||
                   dma_err_i || cpl_timeout_i || unexp_cpl_i || rst_pend_q;

  // Set by a refused access and by the engine's events, cleared by an ERR
  // write (W1C: in order with the beat's dwords, so it clears what an
  // earlier dword set) and by a queue reset as it fires.
  logic [ErrW-1:0] err_d;
  always_comb begin
    err_d = err_q;
    if (reg_act) begin
      if ((is_wr || is_rd) && !(size_ok && in_page)) err_d[nictx_reg_pkg::ErrBadAccess] = 1'b1;
      if (wc_bad_access_i) err_d[nictx_reg_pkg::ErrBadAccess] = 1'b1;
      for (int unsigned k = 0; k < 2; k++) begin
        err_d = err_d | w_ref[k*ErrW +: ErrW];
        if (w_take[k] && w_rid[k*RidW +: RidW] == nictx_reg_pkg::RidErr)
          err_d = err_d & ~w_val[k*32 +: ErrW];
      end
      // Write-combining block close while disabled; a WC tail beyond the ring.
      if (wc_close_i && !enable_q) err_d[nictx_reg_pkg::ErrDbOff] = 1'b1;
      if (wc_tail_range_i) err_d[nictx_reg_pkg::ErrTailRange] = 1'b1;
      if (bad_desc_i) err_d[nictx_reg_pkg::ErrBadDesc] = 1'b1;
      if (dma_err_i)  err_d[nictx_reg_pkg::ErrDma] = 1'b1;
      if (cpl_timeout_i) err_d[nictx_reg_pkg::ErrCplTimeout] = 1'b1;
      if (unexp_cpl_i) err_d[nictx_reg_pkg::ErrUnexpCpl] = 1'b1;
      if (rst_go) err_d = nictx_reg_pkg::RegErrReset[ErrW-1:0];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      err_q <= nictx_reg_pkg::RegErrReset[ErrW-1:0];
    else if (reg_act) err_q <= err_d;
  end

  // ---------------------------------------------------------------- control and queue reset

  // CTRL: enable, or ask for a queue reset.  A pending queue reset fires
  // once nothing can be cut and no completion can still come (or the
  // completion timeout has passed): the datapath is reset next cycle
  // (qrst_q); the ring configuration opens again.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      enable_q   <= nictx_reg_pkg::CtrlEnableReset;
      rst_pend_q <= nictx_reg_pkg::StatusResettingReset;
      cfg_open_q <= 1'b1;  // the ring state is at its reset value
      rst_wait_q <= '0;
    end else if (reg_act) begin
      for (int unsigned k = 0; k < 2; k++) begin
        if (w_take[k] && w_rid[k*RidW +: RidW] == nictx_reg_pkg::RidCtrl) begin
          if (w_val[k*32 + nictx_reg_pkg::CtrlReset]) begin
            rst_pend_q <= 1'b1;
          end else begin
            enable_q <= w_val[k*32 + nictx_reg_pkg::CtrlEnable];
            if (w_val[k*32 + nictx_reg_pkg::CtrlEnable]) cfg_open_q <= 1'b0;  // the ring state is in use now
          end
        end
      end
      if (rst_pend_q && !rst_go && rst_wait_q != cpl_to_q) rst_wait_q <= rst_wait_q + 24'd1;
      if (rst_go) begin
        rst_pend_q <= 1'b0;
        cfg_open_q <= 1'b1;
        rst_wait_q <= '0;
      end
    end
  end

  // The queue reset pulse: one cycle after the reset fired.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) qrst_q <= 1'b0;
    else         qrst_q <= rst_go;
  end

  // ---------------------------------------------------------------- configuration

  // log2 of a queue count rounded up (queues_log2_o).
  function automatic logic [2:0] ceil_log2(logic [6:0] nq);
    ceil_log2 = '0;
    for (int unsigned r = 0; r < nictx_reg_pkg::QueuesValueWidth - 1; r++) begin
      if ((7'd1 << r) < nq) ceil_log2 = 3'(r + 1);
    end
  endfunction

  // The device-wide registers a write stores, by register id.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      proto_q      <= nictx_reg_pkg::ProtoValueReset;
      cpl_to_q     <= nictx_reg_pkg::CplTimeoutValueReset;
      wb_thresh_q  <= nictx_reg_pkg::WbThreshValueReset;
      irq_thresh_q <= nictx_reg_pkg::IrqThreshValueReset;
      irq_tmr_q    <= nictx_reg_pkg::IrqTimerValueReset;
      cpl_mode_q   <= nictx_reg_pkg::CplModeValueReset;
      mrrs_log2_q  <= nictx_reg_pkg::MrrsLog2ValueReset;
      mps_log2_q   <= nictx_reg_pkg::MpsLog2ValueReset;
      line_rate_q  <= nictx_reg_pkg::LineRateValueReset;
      fetch_max_q  <= nictx_reg_pkg::DescFetchMaxValueReset;
      inflight_q   <= nictx_reg_pkg::DescInflightValueReset;
      max_tags_q   <= nictx_reg_pkg::MaxTagsValueReset;
      max_rd_q     <= nictx_reg_pkg::MaxRdBytesValueReset;
      queues_q     <= nictx_reg_pkg::QueuesValueReset;
      qlog_q       <= ceil_log2(nictx_reg_pkg::QueuesValueReset);
      sched_q      <= nictx_reg_pkg::SchedModeReset;
      quantum_q    <= nictx_reg_pkg::DrrQuantumValueReset;
    end else if (wr_en != 2'b00) begin
      for (int unsigned k = 0; k < 2; k++) begin
        logic [31:0] v;
        v = w_val[k*32 +: 32];
        if (w_take[k]) begin
          unique case (w_rid[k*RidW +: RidW])
            nictx_reg_pkg::RidProto:        proto_q      <= v[1:0];
            nictx_reg_pkg::RidCplTimeout:   cpl_to_q     <= v[23:0];
            nictx_reg_pkg::RidWbThresh:     wb_thresh_q  <= v[15:0];
            nictx_reg_pkg::RidIrqThresh:    irq_thresh_q <= v[15:0];
            nictx_reg_pkg::RidIrqTimer:     irq_tmr_q    <= v[23:0];
            nictx_reg_pkg::RidCplMode:      cpl_mode_q   <= v[1:0];
            nictx_reg_pkg::RidMrrsLog2:     mrrs_log2_q  <= v[3:0];
            nictx_reg_pkg::RidMpsLog2:      mps_log2_q   <= v[nictx_reg_pkg::MpsLog2ValueWidth-1:0];
            nictx_reg_pkg::RidLineRate:     line_rate_q  <= v[23:0];
            nictx_reg_pkg::RidDescFetchMax: fetch_max_q  <= v[nictx_reg_pkg::DescFetchMaxValueWidth-1:0];
            nictx_reg_pkg::RidDescInflight: inflight_q   <= v[3:0];
            nictx_reg_pkg::RidMaxTags:      max_tags_q   <= v[8:0];
            nictx_reg_pkg::RidMaxRdBytes:   max_rd_q     <= v[20:0];
            nictx_reg_pkg::RidQueues: begin
              queues_q <= v[6:0];
              qlog_q   <= ceil_log2(v[6:0]);
            end
            nictx_reg_pkg::RidSched:        sched_q      <= v[nictx_reg_pkg::SchedMode];
            nictx_reg_pkg::RidDrrQuantum:   quantum_q    <= v[16:0];
            default: ;  // another block's register, or none
          endcase
        end
      end
    end
  end

  // ---------------------------------------------------------------- queue and vector entries

  // The accessed queue's (vector's) entries after this beat's writes (one
  // beat may write both halves of a 64-bit pair).  Worked out only for a
  // write.
  logic [63:0] ring_base_d, wb_addr_d, cq_base_d, msix_addr_d;
  logic [4:0]  ring_log2_d, cq_log2_d;
  logic [31:0] msix_data_d;
  logic [7:0]  weight_d;
  logic        msix_mask_d;
  always_comb begin
    logic [31:0] v;
    v           = 32'd0;
    ring_base_d = '0;
    ring_log2_d = '0;
    wb_addr_d   = '0;
    cq_base_d   = '0;
    cq_log2_d   = '0;
    msix_addr_d = '0;
    msix_data_d = '0;
    weight_d    = '0;
    msix_mask_d = 1'b0;
    if (wr_en != 2'b00) begin
      ring_base_d = ring_base_m[aq];
      ring_log2_d = ring_log2_m[aq];
      wb_addr_d   = wb_addr_m[aq];
      cq_base_d   = cq_base_m[aq];
      cq_log2_d   = cq_log2_m[aq];
      msix_addr_d = msix_addr_m[aq];
      msix_data_d = msix_data_m[aq];
      weight_d    = weight_m[aq];
      msix_mask_d = msix_mask_q[aq];
      for (int unsigned k = 0; k < 2; k++) begin
        v = w_val[k*32 +: 32];
        if (w_take[k]) begin
          unique case (w_rid[k*RidW +: RidW])
            nictx_reg_pkg::RidQRingBaseLo:   ring_base_d[31:0]  = v;
            nictx_reg_pkg::RidQRingBaseHi:   ring_base_d[63:32] = v;
            nictx_reg_pkg::RidQRingLog2:     ring_log2_d        = v[4:0];
            nictx_reg_pkg::RidQWeight:       weight_d           = v[7:0];
            nictx_reg_pkg::RidQWbAddrLo:     wb_addr_d[31:0]    = v;
            nictx_reg_pkg::RidQWbAddrHi:     wb_addr_d[63:32]   = v;
            nictx_reg_pkg::RidQCqBaseLo:     cq_base_d[31:0]    = v;
            nictx_reg_pkg::RidQCqBaseHi:     cq_base_d[63:32]   = v;
            nictx_reg_pkg::RidQCqLog2:       cq_log2_d          = v[4:0];
            nictx_reg_pkg::RidMsixMsgAddrLo: msix_addr_d[31:0]  = v;
            nictx_reg_pkg::RidMsixMsgAddrHi: msix_addr_d[63:32] = v;
            nictx_reg_pkg::RidMsixMsgData:   msix_data_d        = v;
            nictx_reg_pkg::RidMsixVecCtrl:   msix_mask_d        = v[nictx_reg_pkg::MsixVecCtrlMask];
            default: ;  // another block's register, or none
          endcase
        end
      end
    end
  end

  // The accessed queue's (vector's) entries: written only by a register
  // write (they differ from the entry only then).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      msix_mask_q <= {NumQueues{nictx_reg_pkg::MsixVecCtrlMaskReset}};
      rb_zero_q   <= {NumQueues{{nictx_reg_pkg::QRegRingBaseHiReset,
                                 nictx_reg_pkg::QRegRingBaseLoReset} == 64'd0}};
      rb0_q       <= {nictx_reg_pkg::QRegRingBaseHiReset, nictx_reg_pkg::QRegRingBaseLoReset};
      for (int unsigned q = 0; q < NumQueues; q++) begin
        ring_base_m[q] <= {nictx_reg_pkg::QRegRingBaseHiReset, nictx_reg_pkg::QRegRingBaseLoReset};
        ring_log2_m[q] <= nictx_reg_pkg::QRingLog2ValueReset;
        wb_addr_m[q]   <= {nictx_reg_pkg::QRegWbAddrHiReset, nictx_reg_pkg::QRegWbAddrLoReset};
        cq_base_m[q]   <= {nictx_reg_pkg::QRegCqBaseHiReset, nictx_reg_pkg::QRegCqBaseLoReset};
        cq_log2_m[q]   <= nictx_reg_pkg::QCqLog2ValueReset;
        msix_addr_m[q] <= {nictx_reg_pkg::MsixRegMsgAddrHiReset,
                           nictx_reg_pkg::MsixRegMsgAddrLoReset};
        msix_data_m[q] <= nictx_reg_pkg::MsixMsgDataValueReset;
        weight_m[q]    <= nictx_reg_pkg::QWeightValueReset;
      end
    end else if (wr_en != 2'b00) begin
      msix_mask_q[aq] <= msix_mask_d;
      rb_zero_q[aq]   <= ring_base_d == 64'd0;
      if (aq == '0) rb0_q <= ring_base_d;
      ring_base_m[aq] <= ring_base_d;
      ring_log2_m[aq] <= ring_log2_d;
      wb_addr_m[aq]   <= wb_addr_d;
      cq_base_m[aq]   <= cq_base_d;
      cq_log2_m[aq]   <= cq_log2_d;
      msix_addr_m[aq] <= msix_addr_d;
      msix_data_m[aq] <= msix_data_d;
      weight_m[aq]    <= weight_d;
    end
  end

  // ---------------------------------------------------------------- doorbell and tails

  // Doorbell: a taken tail write (queue aq) or a WC block close (which may
  // move queue 0's tail).  db_tail_o is the accessed queue's tail as it is
  // written this clock (its stored value when nothing writes it).
  always_comb begin
    doorbell = 1'b0;
    tq       = aq;
    tail_d   = tail_m[aq];
    if (wr_en != 2'b00) begin
      for (int unsigned k = 0; k < 2; k++) begin
        if (w_take[k] && w_rid[k*RidW +: RidW] == nictx_reg_pkg::RidQTail) begin
          tail_d   = w_val[k*32 +: 16];
          doorbell = 1'b1;
        end
      end
    end
    if (enable_q) begin  // (nested: the WC events only when enabled)
      if (wc_close_i) doorbell = 1'b1;
      if (wc_tail_we_i) begin
        tail_d = wc_tail_i;  // queue 0 (WC needs QUEUES 1): the only block in use
        tq     = '0;
      end
    end
    if (rst_go) tail_d = nictx_reg_pkg::QTailValueReset;
  end

  // Per-queue tails and counters: one write a cycle each (the access's or
  // the WC window's queue, or the sent frame's for the counters); a queue
  // reset clears every tail.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned q = 0; q < NumQueues; q++) begin
        tail_m[q]       <= nictx_reg_pkg::QTailValueReset;
        qcnt_pkts_m[q]  <= nictx_reg_pkg::QCntPktsValueReset;
        qcnt_bytes_m[q] <= {nictx_reg_pkg::QRegCntBytesHiReset, nictx_reg_pkg::QRegCntBytesLoReset};
      end
    end else begin
      if (rst_go) begin
        for (int unsigned q = 0; q < NumQueues; q++) tail_m[q] <= nictx_reg_pkg::QTailValueReset;
      end else if (wr_en != 2'b00 || wc_tail_we_i) begin
        tail_m[tq] <= tail_d;
      end
      if (pkt_done_i) begin
        qcnt_pkts_m[pkt_q_i]  <= qcnt_pkts_m[pkt_q_i] + 32'd1;
        qcnt_bytes_m[pkt_q_i] <= qcnt_bytes_m[pkt_q_i] + {50'd0, pkt_len_i};
      end
    end
  end

  // ---------------------------------------------------------------- counters

  // Each on its own event.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_stall_q     <= nictx_reg_pkg::CntRdStallValueReset;
      cnt_pkts_q      <= nictx_reg_pkg::CntPktsValueReset;
      cnt_bytes_q     <= {nictx_reg_pkg::RegCntBytesHiReset, nictx_reg_pkg::RegCntBytesLoReset};
      cnt_db_q        <= nictx_reg_pkg::CntDoorbellValueReset;
      cnt_desc_rd_q   <= nictx_reg_pkg::CntDescRdValueReset;
      cnt_dma_rd_q    <= nictx_reg_pkg::CntDmaRdValueReset;
      cnt_not_owned_q <= nictx_reg_pkg::CntNotOwnedValueReset;
      cnt_wc_q        <= nictx_reg_pkg::CntWcValueReset;
      cnt_wc_drop_q   <= nictx_reg_pkg::CntWcDropValueReset;
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

  // ---------------------------------------------------------------- reads

  // A register's value by id, for a read (of the accessed queue or vector).
  logic [31:0] rd_lo, rd_hi;
  always_comb begin
    logic [31:0] v;
    rd_lo = 32'd0;
    rd_hi = 32'd0;
    v     = 32'd0;
    // Only a register read takes the mux's value: nothing of it is worked
    // out on other clocks.  Both dwords of the aligned 8-byte word.
    if (is_rd) begin
      for (int unsigned k = 0; k < 2; k++) begin
        v = 32'd0;
        unique case (nictx_reg_pkg::reg_rid({req_off_i[12:3], k == 0 ? 1'b0 : 1'b1, 2'b00}))
          nictx_reg_pkg::RidCtrl:          v[nictx_reg_pkg::CtrlEnable] = enable_q;
          nictx_reg_pkg::RidErr:           v = 32'(err_q);
          nictx_reg_pkg::RidWbThresh:      v = 32'(wb_thresh_q);
          nictx_reg_pkg::RidIrqThresh:     v = 32'(irq_thresh_q);
          nictx_reg_pkg::RidMrrsLog2:      v = 32'(mrrs_log2_q);
          nictx_reg_pkg::RidMpsLog2:       v = 32'(mps_log2_q);
          nictx_reg_pkg::RidLineRate:      v = 32'(line_rate_q);
          nictx_reg_pkg::RidCntPkts:       v = cnt_pkts_q;
          nictx_reg_pkg::RidCntBytesLo:    v = cnt_bytes_q[31:0];
          nictx_reg_pkg::RidCntBytesHi:    v = cnt_bytes_q[63:32];
          nictx_reg_pkg::RidCntDoorbell:   v = cnt_db_q;
          nictx_reg_pkg::RidCntDescRd:     v = cnt_desc_rd_q;
          nictx_reg_pkg::RidCntDmaRd:      v = cnt_dma_rd_q;
          nictx_reg_pkg::RidId:            v = nictx_reg_pkg::RegIdReset;
          nictx_reg_pkg::RidDescFetchMax:  v = 32'(fetch_max_q);
          nictx_reg_pkg::RidMaxTags:       v = 32'(max_tags_q);
          nictx_reg_pkg::RidMaxRdBytes:    v = 32'(max_rd_q);
          nictx_reg_pkg::RidCntRdStall:    v = cnt_stall_q;
          nictx_reg_pkg::RidProto:         v = 32'(proto_q);
          nictx_reg_pkg::RidCntNotOwned:   v = cnt_not_owned_q;
          nictx_reg_pkg::RidCntWc:         v = cnt_wc_q;
          nictx_reg_pkg::RidCntWcDrop:     v = cnt_wc_drop_q;
          nictx_reg_pkg::RidStatus: begin
            v[nictx_reg_pkg::StatusQuiescent] = quiescent_i && rd_drained_i;
            v[nictx_reg_pkg::StatusIdle]      = engine_idle_i;
            v[nictx_reg_pkg::StatusResetting] = rst_pend_q || qrst_q;
          end
          nictx_reg_pkg::RidCplTimeout:    v = 32'(cpl_to_q);
          nictx_reg_pkg::RidDescInflight:  v = 32'(inflight_q);
          nictx_reg_pkg::RidCplMode:       v = 32'(cpl_mode_q);
          nictx_reg_pkg::RidIrqTimer:      v = 32'(irq_tmr_q);
          nictx_reg_pkg::RidQueues:        v = 32'(queues_q);
          nictx_reg_pkg::RidSched:         v[nictx_reg_pkg::SchedMode] = sched_q;
          nictx_reg_pkg::RidDrrQuantum:    v = 32'(quantum_q);
          nictx_reg_pkg::RidPbaLo:         v = pba_i[31:0];
          nictx_reg_pkg::RidPbaHi:         v = pba_i[63:32];
          nictx_reg_pkg::RidMsixMsgAddrLo: v = msix_addr_m[aq][31:0];
          nictx_reg_pkg::RidMsixMsgAddrHi: v = msix_addr_m[aq][63:32];
          nictx_reg_pkg::RidMsixMsgData:   v = msix_data_m[aq];
          nictx_reg_pkg::RidMsixVecCtrl:   v[nictx_reg_pkg::MsixVecCtrlMask] = msix_mask_q[aq];
          nictx_reg_pkg::RidQTail:         v = 32'(tail_m[aq]);
          nictx_reg_pkg::RidQHead:         v = 32'(hr_head_i);
          nictx_reg_pkg::RidQRingBaseLo:   v = ring_base_m[aq][31:0];
          nictx_reg_pkg::RidQRingBaseHi:   v = ring_base_m[aq][63:32];
          nictx_reg_pkg::RidQRingLog2:     v = 32'(ring_log2_m[aq]);
          nictx_reg_pkg::RidQWeight:       v = 32'(weight_m[aq]);
          nictx_reg_pkg::RidQWbAddrLo:     v = wb_addr_m[aq][31:0];
          nictx_reg_pkg::RidQWbAddrHi:     v = wb_addr_m[aq][63:32];
          nictx_reg_pkg::RidQCntPkts:      v = qcnt_pkts_m[aq];
          nictx_reg_pkg::RidQCntBytesLo:   v = qcnt_bytes_m[aq][31:0];
          nictx_reg_pkg::RidQCntBytesHi:   v = qcnt_bytes_m[aq][63:32];
          nictx_reg_pkg::RidQCqBaseLo:     v = cq_base_m[aq][31:0];
          nictx_reg_pkg::RidQCqBaseHi:     v = cq_base_m[aq][63:32];
          nictx_reg_pkg::RidQCqLog2:       v = 32'(cq_log2_m[aq]);
          default:                         v = 32'd0;  // no register: reads 0
        endcase
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

  // ---------------------------------------------------------------- outputs

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
  assign mps_log2_o       = mps_log2_q;
  assign line_rate_o      = line_rate_q;
  assign desc_fetch_max_o = fetch_max_q;
  assign desc_inflight_o  = inflight_q;
  assign max_tags_o       = max_tags_q;
  assign max_rd_bytes_o   = max_rd_q;

`ifndef SYNTHESIS
`ifdef NICTX_COVER
  // Functional cover points, named as in sim/lib/cover.h (docs/coverage.md):
  // compiled only by make coverage (+define+NICTX_COVER, --coverage-user);
  // the C model counts the same terms (c-model/cm_engine.c, cover_sample).
  // A doorbell's tail below the queue's last: the ring wrapped.
  ring_wrap: cover property (@(posedge clk_i) disable iff (!rst_ni) doorbell && tail_d < tail_m[tq]);
  // Each ERR cause, as its bit is set.
  err_tail_range: cover property (@(posedge clk_i) disable iff (!rst_ni)
      reg_act && err_d[nictx_reg_pkg::ErrTailRange] && !err_q[nictx_reg_pkg::ErrTailRange]);
  err_bad_desc: cover property (@(posedge clk_i) disable iff (!rst_ni)
      reg_act && err_d[nictx_reg_pkg::ErrBadDesc] && !err_q[nictx_reg_pkg::ErrBadDesc]);
  err_bad_access: cover property (@(posedge clk_i) disable iff (!rst_ni)
      reg_act && err_d[nictx_reg_pkg::ErrBadAccess] && !err_q[nictx_reg_pkg::ErrBadAccess]);
  err_dma: cover property (@(posedge clk_i) disable iff (!rst_ni)
      reg_act && err_d[nictx_reg_pkg::ErrDma] && !err_q[nictx_reg_pkg::ErrDma]);
  err_db_off: cover property (@(posedge clk_i) disable iff (!rst_ni)
      reg_act && err_d[nictx_reg_pkg::ErrDbOff] && !err_q[nictx_reg_pkg::ErrDbOff]);
  err_cfg: cover property (@(posedge clk_i) disable iff (!rst_ni)
      reg_act && err_d[nictx_reg_pkg::ErrCfg] && !err_q[nictx_reg_pkg::ErrCfg]);
  err_cpl_timeout: cover property (@(posedge clk_i) disable iff (!rst_ni)
      reg_act && err_d[nictx_reg_pkg::ErrCplTimeout] && !err_q[nictx_reg_pkg::ErrCplTimeout]);
  err_unexp_cpl: cover property (@(posedge clk_i) disable iff (!rst_ni)
      reg_act && err_d[nictx_reg_pkg::ErrUnexpCpl] && !err_q[nictx_reg_pkg::ErrUnexpCpl]);
`endif
`endif

endmodule
