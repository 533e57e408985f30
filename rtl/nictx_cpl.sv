// SPDX-License-Identifier: Apache-2.0
// nictx_cpl: transmit completions: each queue's head, completion writes
// (head writeback, DD, CQE, whole descriptors), MSI-X interrupts with
// moderation, masks and pending bits.
//
// Ports: pkt_done_i (with pkt_q_i) completes a queue's next descriptor;
// wr_* offers one posted MWr, a completion write or an MSI-X message
// (DESC_WB_FULL: a batch's descriptors in writes of at most the MPS, cut
// at MPS-aligned addresses and at the ring's wrap, one after the other)
// (wr_valid_o never waits for wr_ready_i; fields are registers).  c_q_o and
// w_q_o ask the register block for a queue's ring, CQ and vector, answered
// in the same cycle on c_*_i and w_*_i.  wait_o, wake_o, skip_i: the
// moderation timers over clocks the simulator leaves out.
// Theory of operation: docs/device.md, "Completions and interrupts: nictx_cpl".
module nictx_cpl #(
  parameter int unsigned NumQueues = 64,
  localparam int unsigned QW       = (NumQueues > 1) ? $clog2(NumQueues) : 1
) (
  input  logic        clk_i,
  // verilator lint_off SYNCASYNCNET
  input  logic        rst_ni,        // also in the simulation-only assertions' enable
  // verilator lint_on SYNCASYNCNET
  input  logic        multi_i,       // QUEUES > 1
  input  logic [QW-1:0] pkt_q_i,     // pkt_done_i's queue
  output logic [QW-1:0] c_q_o,       // = pkt_q_i: the queue c_cfg_i describes
  input  nictx_pkg::q_cpl_t c_cfg_i,
  output logic [QW-1:0] w_q_o,       // the queue whose completion write or interrupt goes out next
  input  nictx_pkg::q_wr_t w_cfg_i,  // ... its registers (msix_*: its vector's)
  input  logic [NumQueues-1:0] msix_mask_i,  // VEC_CTRL.MASK per vector
  // pending bits: a message due on a masked vector
  output logic [nictx_pkg::MaxQueues-1:0] pba_o,
  input  logic [QW-1:0] hr_q_i,
  output logic [nictx_pkg::IdxW-1:0] hr_head_o,
  // Queue 0's registers, for one queue
  input  logic [nictx_pkg::Log2W-1:0] ring_log2_i,
  input  logic [nictx_pkg::IdxW-1:0]  tail_i,
  input  logic        pkt_done_i,
  input  logic [nictx_reg_pkg::CplModeValueWidth-1:0]   cpl_mode_i,
  input  logic [nictx_pkg::AddrW-1:0] ring_base_i,
  input  logic [nictx_pkg::AddrW-1:0] cq_base_i,
  input  logic [nictx_pkg::Log2W-1:0] cq_log2_i,
  input  logic [nictx_reg_pkg::WbThreshValueWidth-1:0]  wb_thresh_i,
  input  logic [nictx_reg_pkg::MpsLog2ValueWidth-1:0]   mps_log2_i,  // DESC_WB_FULL's cut
  input  logic [nictx_pkg::AddrW-1:0] wb_addr_i,
  input  logic [nictx_reg_pkg::IrqThreshValueWidth-1:0] irq_thresh_i,
  input  logic [nictx_reg_pkg::IrqTimerValueWidth-1:0]  irq_timer_i,
  input  logic [nictx_pkg::AddrW-1:0]     irq_addr_i,
  input  logic [nictx_pkg::MsixDataW-1:0] irq_data_i,
  output logic [nictx_pkg::IdxW-1:0] head_o,
  // Posted write out (4 or 8 bytes; data lanes follow addr[2])
  output logic        wr_valid_o,
  input  logic        wr_ready_i,  // (a write of several beats: with its last)
  output nictx_pkg::cpl_wr_t wr_o,
  output logic        timer_o,      // the moderation timer runs
  input  logic [nictx_pkg::ClkW-1:0] skip_i,  // clocks left out before this one (above)
  output logic        wait_o,       // nothing but the timers changes on this clock
  output logic [nictx_pkg::ClkW-1:0] wake_o,  // clocks that may be left out after this one
  output logic        idle_o
);

  logic [15:0] head_d, head_q;
  logic        hphase_d, hphase_q;      // pass phase of the slot at head
  logic [15:0] wb_cnt_d, wb_cnt_q;
  logic [15:0] irq_cnt_d, irq_cnt_q;
  logic        wb_pend_d, wb_pend_q;    // a completion write waits to go out
  logic [63:0] wb_a_d, wb_a_q;          // its address, data and length
  logic [63:0] wb_w_d, wb_w_q;
  logic [3:0]  wb_l_d, wb_l_q;
  logic [15:0] wb_n_d, wb_n_q;          // DESC_WB_FULL: descriptors left to write (at wb_a_q)
  logic [15:0] cq_pi_d, cq_pi_q;        // CQ producer index and phase
  logic        cq_ph_d, cq_ph_q;
  logic        irq_pend_d, irq_pend_q;
  logic        tmr_run_d, tmr_run_q;
  logic [23:0] tmr_d, tmr_q;
  logic        wr_valid_d, wr_valid_q;
  nictx_pkg::cpl_wr_t wr_d, wr_q;      // the posted write
  logic [15:0] mask, cq_mask, last;
  logic        wb_on, irq_on, at_tail, wb_due, irq_trig, irq_due, last_ph, s_act;
  logic [31:0] dd_word;
  logic        full;                    // CPL_MODE DESC_WB_FULL
  logic [16:0] rsize;                   // the ring's entries
  logic [15:0] f_cnt, f_first, f_idx;   // DESC_WB_FULL: the batch, its first, the write's first
  logic [16:0] f_wrap;                  // ... its entries to the ring's wrap
  logic [8:0]  f_n;                     // ... the write's descriptors

  // DESC_WB_FULL: the descriptors of a write from addr: at most left, to
  // the ring's wrap (wrap) and to the next MPS-aligned address (a posted
  // write carries at most the MPS and never crosses 4 KiB).
  function automatic logic [8:0] full_n(logic [12:0] addr, logic [15:0] left,
                                        logic [16:0] wrap, logic [3:0] mps_log2);
    logic [12:0] mps;
    logic [8:0]  n;
    mps = 13'd1 << mps_log2;
    n   = 9'((mps - (addr & (mps - 13'd1))) >> 4);  // 1..256
    if (left < 16'(n)) n = left[8:0];
    if (wrap < 17'(n)) n = wrap[8:0];
    full_n = n;
  endfunction

  // Queues (multi_i)
  localparam int unsigned NP  = NumQueues > 1 ? NumQueues : 2;  // pickers' width
  localparam int unsigned PW  = NumQueues > 1 ? QW : 1;
  localparam int unsigned TdW = 26;     // deadlines: IRQ_TIMER + 1 < 2^25 cycles ahead
  logic [15:0] mhead_m [NumQueues];     // head per queue
  // {completions since the last write was due, completions not yet
  // signalled}: one word per queue, written together (fewer write ports)
  logic [31:0] mcic_m  [NumQueues];
  logic [31:0] c_cic;                   // ... pkt_q_i's
  logic [15:0] mrc_m   [NumQueues];     // completions since the last write went out
  logic [15:0] mpi_m   [NumQueues];     // CQ producer index
  logic [TdW-1:0] mdl_m [NumQueues];    // the running timer's deadline
  logic [NumQueues-1:0] mpend_d, mpend_q;  // a completion write is due
  logic [NumQueues-1:0] mph_d, mph_q;      // phase of the slot at the head
  logic [NumQueues-1:0] mcph_d, mcph_q;    // CQ phase
  logic [NumQueues-1:0] mirq_d, mirq_q;    // an interrupt is due
  logic [NumQueues-1:0] mrun_d, mrun_q;    // the moderation timer runs
  logic [QW-1:0] mptr_q;                // round robin over the pending writes
  logic [QW-1:0] miptr_q;               // ... and the due interrupts
  logic [QW-1:0] mw_q, mi_q;
  logic          mw_any, mi_any, m_free, m_send, mi_send, m_due, m_wr_on;
  logic [15:0]   m_mask, m_head, m_cnt, m_rc, m_ic;
  logic [15:0]   w_mask, w_cmask, w_last;
  logic          w_ph;
  logic [15:0]   w_cnt, w_first, m_left;  // DESC_WB_FULL: the batch, its first, left after this write
  logic          w_fph;                 // ... the first's phase
  logic [63:0]   w_faddr;               // ... its address
  logic [8:0]    w_fn;                  // ... the write's descriptors
  logic          m_start, m_trig_c, m_trig_t, m_force_c, m_force_t;
  logic [NumQueues-1:0] mi_req;
  logic [NumQueues-1:0] m_pba;         // pending bits: mirq_q of the masked vectors
  // Timer FIFO: queue and deadline per entry, in deadline order.
  logic [QW+TdW-1:0] tf_m [NP];         // {queue, deadline}
  logic [PW:0]    tf_rd_q, tf_wr_q;     // pointers, one wrap bit
  logic [TdW-1:0] now_q;                // free-running cycle count (multi_i)
  logic           tmr_dec;              // tmr_d is the count-down's (no start, no stop)
  logic [QW-1:0]  tf_hq;                // the head entry's queue
  logic [TdW-1:0] tf_dl, tf_left;       // ... its deadline, cycles to it
  logic           tf_any, tf_full, tf_live, tf_pop;
  logic           pkt_done_s;           // a completion for the single-queue logic

  assign pkt_done_s = pkt_done_i && !multi_i;

  prim_rr_pick #(
    .N (NP)
  ) u_wb_pick (
    .req_i   (NP'(mpend_q)),
    .ptr_i   (PW'(mptr_q)),
    .idx_o   (mw_q),
    .valid_o (mw_any)
  );

  // An interrupt goes after its queue's completion write, unmasked.
  assign mi_req = mirq_q & ~mpend_q & ~msix_mask_i;

  prim_rr_pick #(
    .N (NP)
  ) u_irq_pick (
    .req_i   (NP'(mi_req)),
    .ptr_i   (PW'(miptr_q)),
    .idx_o   (mi_q),
    .valid_o (mi_any)
  );

  // The single-queue state and the output register stay one block (176
  // lines) for speed: split by concern (what is due; head, counts and
  // timer; the completion write; the output register), with the block
  // below split too, the default run takes 0.92% more instructions and
  // the 8-queue owner run 0.79% more (callgrind, 20000 packets;
  // docs/architecture.md, Simulation speed).
  always_comb begin
    // An interrupt is due; it waits for a completion write that covers
    // every completion so far (one already waiting to go out may not).
    // (A message held by the mask takes later ones into it: one message.)
    // Each is worked out only when it can be due (completions counted).
    irq_on   = irq_thresh_i != '0 || irq_timer_i != '0;
    irq_trig = 1'b0;
    if (irq_on) begin  // (nested: each test only after the one before)
      if (irq_cnt_q != '0) begin
        if (!irq_pend_q || msix_mask_i[0]) begin
          irq_trig = (irq_thresh_i != '0 && irq_cnt_q >= irq_thresh_i) ||
                     (irq_timer_i != '0 && tmr_run_q && tmr_q == '0);
        end
      end
    end
    wb_on   = 1'b0;  // (read only with wb_cnt_q != 0)
    at_tail = 1'b0;
    wb_due  = 1'b0;
    if (wb_cnt_q != '0) begin
      unique case (cpl_mode_i)
        nictx_reg_pkg::CplModeDescWb,
        nictx_reg_pkg::CplModeDescWbFull: wb_on = wb_thresh_i != '0;
        nictx_reg_pkg::CplModeCq:     wb_on = wb_thresh_i != '0 && cq_base_i != '0;
        default:                      wb_on = wb_thresh_i != '0 && wb_addr_i != '0;
      endcase
      at_tail = head_q == tail_i;
      if (wb_on) begin
        if (!wb_pend_q) wb_due = wb_cnt_q >= wb_thresh_i || at_tail || irq_trig;
      end
    end
    irq_due = irq_trig && !(wb_on && wb_pend_q && wb_cnt_q != '0);
    tmr_dec = tmr_run_q && tmr_q != '0;
    // Something of the single-queue state or of the output register may
    // change on this clock: only then is the next state computed and taken
    // (s_act enables the registers below; on other clocks every _d equals
    // its _q).
    s_act   = pkt_done_s || wb_due || irq_due || tmr_dec || wb_pend_q || irq_pend_q ||
              wr_valid_q || m_send || mi_send;
    mask    = '0;
    cq_mask = '0;
    last    = '0;
    last_ph = 1'b0;
    dd_word = '0;
    full    = cpl_mode_i == nictx_reg_pkg::CplModeDescWbFull;
    rsize   = '0;
    f_cnt   = '0;
    f_first = '0;
    f_idx   = '0;
    f_wrap  = '0;
    f_n     = '0;

    // (without s_act no register takes a _d and no check reads one: they
    // are then 0, a constant, and hold their _q only under s_act)
    head_d     = '0;
    hphase_d   = 1'b0;
    wb_cnt_d   = '0;
    irq_cnt_d  = '0;
    wb_pend_d  = 1'b0;
    wb_a_d     = '0;
    wb_w_d     = '0;
    wb_l_d     = '0;
    wb_n_d     = '0;
    cq_pi_d    = '0;
    cq_ph_d    = 1'b0;
    irq_pend_d = 1'b0;
    tmr_run_d  = 1'b0;
    tmr_d      = '0;
    wr_valid_d = 1'b0;
    wr_d       = '0;

    if (s_act) begin
      head_d     = head_q;
      hphase_d   = hphase_q;
      wb_cnt_d   = wb_cnt_q;
      irq_cnt_d  = irq_cnt_q;
      wb_pend_d  = wb_pend_q;
      wb_a_d     = wb_a_q;
      wb_w_d     = wb_w_q;
      wb_l_d     = wb_l_q;
      wb_n_d     = wb_n_q;
      cq_pi_d    = cq_pi_q;
      cq_ph_d    = cq_ph_q;
      irq_pend_d = irq_pend_q;
      tmr_run_d  = tmr_run_q;
      tmr_d      = tmr_q;
      wr_valid_d = wr_valid_q;
      wr_d       = wr_q;
      mask    = 16'((17'd1 << ring_log2_i) - 17'd1);
      rsize   = {1'b0, mask} + 17'd1;
      if (tmr_dec) tmr_d = tmr_q - 24'd1;

      // Capture what is due; count completions that arrive meanwhile afresh.
      if (wb_due) begin
        // The batch's last descriptor and the phase of its pass.
        cq_mask = 16'((17'd1 << cq_log2_i) - 17'd1);
        last    = (head_q - 16'd1) & mask;
        last_ph = head_q == '0 ? !hphase_q : hphase_q;
        dd_word = {last_ph, 30'd0, 1'b1};
        wb_pend_d = 1'b1;
        wb_cnt_d  = '0;
        unique case (cpl_mode_i)
          nictx_reg_pkg::CplModeDescWb: begin
            wb_a_d = ring_base_i + {44'd0, last, 4'd12};
            wb_w_d = {dd_word, 32'd0};
            wb_l_d = 4'd4;
          end
          nictx_reg_pkg::CplModeDescWbFull: begin
            // The batch's descriptors (the last ring's worth of them at most)
            // from its first, with the phase of its pass.
            f_cnt   = ({1'b0, wb_cnt_q} > rsize) ? rsize[15:0] : wb_cnt_q;
            f_first = (head_q - f_cnt) & mask;
            wb_a_d  = ring_base_i + {44'd0, f_first, 4'd0};
            wb_w_d  = {(f_first >= head_q) ? !hphase_q : hphase_q, 30'd0, 1'b1, 32'd0};
            wb_n_d  = f_cnt;
          end
          nictx_reg_pkg::CplModeCq: begin
            wb_a_d  = cq_base_i + {45'd0, cq_pi_q, 3'd0};
            wb_w_d  = {cq_ph_q, 31'd0, wb_cnt_q, last};
            wb_l_d  = 4'd8;
            cq_pi_d = (cq_pi_q + 16'd1) & cq_mask;
            if (cq_pi_q == cq_mask) cq_ph_d = !cq_ph_q;
          end
          default: begin
            wb_a_d = wb_addr_i;
            wb_w_d = wb_addr_i[2] ? {16'd0, head_q, 32'd0} : {48'd0, head_q};
            wb_l_d = 4'd4;
          end
        endcase
      end
      if (irq_due) begin
        irq_pend_d = 1'b1;
        irq_cnt_d  = '0;
        tmr_run_d  = 1'b0;
        tmr_dec    = 1'b0;
      end
      if (pkt_done_s) begin
        head_d    = (head_q + 16'd1) & mask;
        if (head_d == '0) hphase_d = !hphase_q;
        wb_cnt_d  = wb_cnt_d + 16'd1;
        // The first completion not yet signalled starts the timer.
        if (irq_cnt_d == '0 && irq_timer_i != '0) begin
          tmr_run_d = 1'b1;
          tmr_d     = irq_timer_i;
          tmr_dec   = 1'b0;
        end
        irq_cnt_d = irq_cnt_d + 16'd1;
      end

      // Output register: the completion write before the interrupt.
      if (wr_valid_q && wr_ready_i) wr_valid_d = 1'b0;
      if (!wr_valid_q || wr_ready_i) begin
        if (wb_pend_q && full) begin
          // The next write of the batch; past the ring's wrap the next
          // pass's phase.
          f_idx      = 16'((wb_a_q - ring_base_i) >> 4);
          f_wrap     = rsize - {1'b0, f_idx};
          f_n        = full_n(wb_a_q[12:0], wb_n_q, f_wrap, mps_log2_i);
          wr_valid_d = 1'b1;
          wr_d.addr  = wb_a_q;
          wr_d.data  = wb_w_q;
          wr_d.len   = {f_n, 4'd0};
          wb_n_d     = wb_n_q - {7'd0, f_n};
          wb_pend_d  = wb_n_q != {7'd0, f_n};
          wb_a_d     = wb_a_q + {51'd0, f_n, 4'd0};
          if (f_wrap == 17'(f_n)) begin
            wb_a_d = ring_base_i;
            wb_w_d = {!wb_w_q[63], wb_w_q[62:0]};
          end
        end else if (wb_pend_q) begin
          wr_valid_d = 1'b1;
          wr_d.addr  = wb_a_q;
          wr_d.data  = wb_w_q;
          wr_d.len   = {9'd0, wb_l_q};
          wb_pend_d  = 1'b0;
        end else if (irq_pend_q && !msix_mask_i[0]) begin
          wr_valid_d = 1'b1;
          wr_d.addr  = irq_addr_i;
          wr_d.data  = irq_addr_i[2] ? {irq_data_i, 32'd0}
                                             : {32'd0, irq_data_i};
          wr_d.len   = 13'd4;
          irq_pend_d = 1'b0;
        end else if (m_send) begin
          // The queue's completion write, from its state now.
          unique case (cpl_mode_i)
            nictx_reg_pkg::CplModeDescWb: begin
              wr_valid_d = 1'b1;
              wr_d.addr  = w_cfg_i.ring_base + {44'd0, w_last, 4'd12};
              wr_d.data  = {w_ph, 30'd0, 1'b1, 32'd0};
              wr_d.len   = 13'd4;
            end
            nictx_reg_pkg::CplModeDescWbFull: begin
              wr_valid_d = 1'b1;
              wr_d.addr  = w_faddr;
              wr_d.data  = {w_fph, 30'd0, 1'b1, 32'd0};
              wr_d.len   = {w_fn, 4'd0};
            end
            nictx_reg_pkg::CplModeCq: begin
              wr_valid_d = w_cfg_i.cq_base != '0;
              wr_d.addr  = w_cfg_i.cq_base + {45'd0, mpi_m[mw_q], 3'd0};
              wr_d.data  = {mcph_q[mw_q], 31'd0, mrc_m[mw_q], w_last};
              wr_d.len   = 13'd8;
            end
            default: begin
              wr_valid_d = w_cfg_i.wb_addr != '0;
              wr_d.addr  = w_cfg_i.wb_addr;
              wr_d.data  = w_cfg_i.wb_addr[2] ? {16'd0, mhead_m[mw_q], 32'd0}
                                              : {48'd0, mhead_m[mw_q]};
              wr_d.len   = 13'd4;
            end
          endcase
        end else if (mi_send) begin
          wr_valid_d = 1'b1;
          wr_d.addr  = w_cfg_i.msix_addr;
          wr_d.data  = w_cfg_i.msix_addr[2] ? {w_cfg_i.msix_data, 32'd0}
                                            : {32'd0, w_cfg_i.msix_data};
          wr_d.len   = 13'd4;
        end
      end
    end
  end

  // Queues: the completing queue's head and counts, the timer FIFO's head,
  // the interrupts that become due, the pending masks.  Only with
  // multi_i: one queue skips all of this.
  // (One block, 106 lines, for speed: split into the write that goes out,
  // the timer FIFO's head and the completing queue, with the fetcher's
  // read-size block split, the default run takes 0.57% more instructions
  // and the 8-queue owner run 0.53% more than with that split alone.)
  always_comb begin
    m_free    = 1'b0;
    c_cic     = '0;
    m_send    = 1'b0;
    mi_send   = 1'b0;
    m_mask    = '0;
    m_head    = '0;
    m_cnt     = '0;
    m_rc      = '0;
    m_ic      = '0;
    m_due     = 1'b0;
    m_wr_on   = 1'b0;
    w_mask    = '0;
    w_cmask   = '0;
    w_last    = '0;
    w_ph      = 1'b0;
    w_cnt     = '0;
    w_first   = '0;
    w_fph     = 1'b0;
    w_faddr   = '0;
    w_fn      = '0;
    m_left    = '0;
    m_start   = 1'b0;
    m_trig_c  = 1'b0;
    m_trig_t  = 1'b0;
    m_force_c = 1'b0;
    m_force_t = 1'b0;
    tf_hq     = '0;
    tf_dl     = '0;
    tf_left   = '0;
    tf_any    = 1'b0;
    tf_full   = 1'b0;
    tf_live   = 1'b0;
    tf_pop    = 1'b0;
    mpend_d   = '0;  // (taken only with multi_i: then the _q below)
    mph_d     = '0;
    mcph_d    = '0;
    mirq_d    = '0;
    mrun_d    = '0;
    if (multi_i) begin  // (only then: one queue skips all of this)
      mpend_d = mpend_q;
      mph_d   = mph_q;
      mcph_d  = mcph_q;
      mirq_d  = mirq_q;
      mrun_d  = mrun_q;
      m_free = (!wr_valid_q || wr_ready_i) && !wb_pend_q && !irq_pend_q;
      m_send  = mw_any && m_free;
      mi_send = !mw_any && mi_any && m_free;
      // The write that goes out: the batch's last descriptor and its phase.
      w_mask  = 16'((17'd1 << w_cfg_i.ring_log2) - 17'd1);
      w_cmask = 16'((17'd1 << w_cfg_i.cq_log2) - 17'd1);
      w_last  = (mhead_m[mw_q] - 16'd1) & w_mask;
      w_ph    = mhead_m[mw_q] == '0 ? !mph_q[mw_q] : mph_q[mw_q];
      // DESC_WB_FULL: the queue's next write, from its first completed
      // descriptor not yet written (the last ring's worth at most); what is
      // left keeps the write due.
      if (mw_any && cpl_mode_i == nictx_reg_pkg::CplModeDescWbFull) begin
        w_cnt   = ({1'b0, mrc_m[mw_q]} > {1'b0, w_mask} + 17'd1) ? w_mask + 16'd1 : mrc_m[mw_q];
        w_first = (mhead_m[mw_q] - w_cnt) & w_mask;
        w_fph   = (w_first >= mhead_m[mw_q]) ? !mph_q[mw_q] : mph_q[mw_q];
        w_faddr = w_cfg_i.ring_base + {44'd0, w_first, 4'd0};
        w_fn    = full_n(w_faddr[12:0], w_cnt, {1'b0, w_mask} + 17'd1 - {1'b0, w_first}, mps_log2_i);
        if (m_send) m_left = w_cnt - {7'd0, w_fn};
      end
      if (m_send) begin
        mpend_d[mw_q] = m_left != '0;
        if (cpl_mode_i == nictx_reg_pkg::CplModeCq) begin
          if (mpi_m[mw_q] == w_cmask) mcph_d[mw_q] = !mcph_q[mw_q];
        end
      end
      if (mi_send) begin
        mirq_d[mi_q] = 1'b0;
      end

      // The timer FIFO's head: dropped if its timer was stopped since,
      // fired when its deadline is reached.
      c_cic   = mcic_m[pkt_q_i];
      tf_any  = tf_rd_q != tf_wr_q;
      tf_full = tf_rd_q[PW] != tf_wr_q[PW] && tf_rd_q[PW-1:0] == tf_wr_q[PW-1:0];
      {tf_hq, tf_dl} = tf_m[tf_rd_q[PW-1:0]];
      tf_left = tf_dl - now_q;  // cycles to the deadline; top bit set once reached
      tf_live = tf_any && mrun_q[tf_hq] && mdl_m[tf_hq] == tf_dl;
      // (a timer about to start with the FIFO full takes the head's place)
      tf_pop  = tf_any && (!tf_live || tf_left == '0 || tf_left[TdW-1] ||
                           (tf_full && pkt_done_i && c_cic[15:0] == '0 && irq_timer_i != '0));

      if (pkt_done_i) begin
        m_mask  = 16'((17'd1 << c_cfg_i.ring_log2) - 17'd1);
        m_head  = (mhead_m[pkt_q_i] + 16'd1) & m_mask;
        m_cnt   = c_cic[31:16] + 16'd1;
        m_rc    = ((m_send && mw_q == pkt_q_i) ? m_left : mrc_m[pkt_q_i]) + 16'd1;
        m_ic    = c_cic[15:0] + 16'd1;
        unique case (cpl_mode_i)
          nictx_reg_pkg::CplModeDescWb,
          nictx_reg_pkg::CplModeDescWbFull: m_wr_on = wb_thresh_i != '0;
          nictx_reg_pkg::CplModeCq:     m_wr_on = wb_thresh_i != '0 && c_cfg_i.cq_base != '0;
          default:                      m_wr_on = wb_thresh_i != '0 && c_cfg_i.wb_addr != '0;
        endcase
        m_due   = m_wr_on && (m_cnt >= wb_thresh_i || m_head == c_cfg_i.tail);
        if (m_head == '0) mph_d[pkt_q_i] = !mph_q[pkt_q_i];
        // The queue's interrupt: its threshold, or its timer's head entry
        // in the same cycle; else the first completion starts its timer.
        m_trig_c = (irq_thresh_i != '0 && m_ic >= irq_thresh_i) ||
                   (tf_pop && tf_live && tf_hq == pkt_q_i);
        m_start  = !m_trig_c && c_cic[15:0] == '0 && irq_timer_i != '0;
      end
      m_trig_t = tf_pop && tf_live && !(pkt_done_i && tf_hq == pkt_q_i);

      // Due interrupts: the queue's completions so far get a completion
      // write first (forced if the batch is not full).
      if (m_trig_c) begin
        mirq_d[pkt_q_i] = 1'b1;
        mrun_d[pkt_q_i] = 1'b0;
        m_force_c       = wb_thresh_i != '0;
      end
      if (m_trig_t) begin
        mirq_d[tf_hq] = 1'b1;
        mrun_d[tf_hq] = 1'b0;
        m_force_t     = wb_thresh_i != '0 && mrc_m[tf_hq] != '0 && !(m_send && mw_q == tf_hq);
      end
      if (m_due || m_force_c) mpend_d[pkt_q_i] = 1'b1;
      if (m_force_t) mpend_d[tf_hq] = 1'b1;
      if (m_start) mrun_d[pkt_q_i] = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned q = 0; q < NumQueues; q++) begin
        mhead_m[q] <= '0;
        mcic_m[q]  <= '0;
        mrc_m[q]   <= '0;
        mpi_m[q]   <= '0;
        mdl_m[q]   <= '0;
      end
      for (int unsigned e = 0; e < NP; e++) begin
        tf_m[e] <= '0;
      end
      mpend_q <= '0;
      mptr_q  <= '0;
      miptr_q <= '0;
      mph_q   <= '1;
      mcph_q  <= '1;
      mirq_q  <= '0;
      mrun_q  <= '0;
      tf_rd_q <= '0;
      tf_wr_q <= '0;
      now_q   <= '0;
    end else begin
      if (m_send) begin
        mrc_m[mw_q] <= m_left;
        if (cpl_mode_i == nictx_reg_pkg::CplModeCq) mpi_m[mw_q] <= (mpi_m[mw_q] + 16'd1) & w_cmask;
      end
      if (m_trig_t) begin
        // its count not yet signalled starts over (and the write count
        // too, with the write forced)
        mcic_m[tf_hq] <= mcic_m[tf_hq] & (m_force_t ? 32'h0 : 32'hFFFF_0000);
      end
      if (multi_i && pkt_done_i) begin
        mhead_m[pkt_q_i] <= m_head;
        mrc_m[pkt_q_i]   <= m_rc;
        mcic_m[pkt_q_i]  <= {(m_due || m_force_c) ? 16'd0 : m_cnt, m_trig_c ? 16'd0 : m_ic};
      end
      if (m_start) begin
        mdl_m[pkt_q_i]                <= now_q + TdW'(irq_timer_i) + 1'b1;
        tf_m[tf_wr_q[PW-1:0]]         <= {pkt_q_i, now_q + TdW'(irq_timer_i) + 1'b1};
      end
      if (multi_i) begin  // (one queue: every _d equals its _q)
        mpend_q <= mpend_d;
        // (the pointers and the cycle count: written where they move)
        if (m_send) mptr_q <= mw_q + 1'b1;
        if (mi_send) miptr_q <= mi_q + 1'b1;
        if (tf_pop) tf_rd_q <= tf_rd_q + 1'b1;
        if (m_start) tf_wr_q <= tf_wr_q + 1'b1;
        now_q   <= now_q + 1'b1 + TdW'(skip_i);
        mph_q   <= mph_d;
        mcph_q  <= mcph_d;
        mirq_q  <= mirq_d;
        mrun_q  <= mrun_d;
      end
    end
  end

  assign c_q_o     = pkt_q_i;
  assign w_q_o     = mw_any ? mw_q : mi_q;
  assign m_pba     = mirq_q & msix_mask_i;
  assign pba_o     = multi_i ? 64'(m_pba)
                             : {63'd0, irq_pend_q && msix_mask_i[0]};
  assign hr_head_o = multi_i ? mhead_m[hr_q_i] : head_q;

  assign head_o     = head_q;
  assign wr_valid_o = wr_valid_q;
  assign wr_o       = wr_q;
  // A message held by its vector's mask waits for the host, not the engine.
  assign timer_o    = tmr_run_q || tf_rd_q != tf_wr_q;

  // The timers across clocks left out (above): only the registers' inputs
  // take skip_i.  The single-queue count-down lost the clocks to its
  // decrement (tmr_dec: no start or stop on this clock), the queues' cycle
  // count gains them.  wake_o from the registers (behind by skip_i, as the
  // harness knows): two short of the single timer's expiry or the FIFO
  // head's deadline.
  always_comb begin
    logic [23:0] w_s, w_m;
    w_s    = '1;
    w_m    = '1;
    wake_o = '1;  // (no timer runs)
    if (tmr_run_q || tf_any) begin
      if (tmr_run_q) w_s = (tmr_q >= 24'd2) ? tmr_q - 24'd2 : '0;
      if (tf_any) begin
        w_m = '0;
        if (tf_live && !tf_left[TdW-1] && tf_left >= TdW'(2))
          w_m = (tf_left - TdW'(2) > TdW'(24'hFF_FFFD)) ? 24'hFF_FFFD : 24'(tf_left - TdW'(2));
      end
      wake_o = (w_s < w_m) ? w_s : w_m;
    end
  end
  assign idle_o     = !wr_valid_q && !wb_pend_q && !(irq_pend_q && !msix_mask_i[0]) &&
                      !wb_due && !irq_due && mpend_q == '0 && (mirq_q & ~msix_mask_i) == '0;
  assign wait_o     = idle_o && !tf_pop;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q     <= '0;
      hphase_q   <= 1'b1;
      wb_cnt_q   <= '0;
      irq_cnt_q  <= '0;
      wb_pend_q  <= 1'b0;
      wb_a_q     <= '0;
      wb_w_q     <= '0;
      wb_l_q     <= '0;
      wb_n_q     <= '0;
      cq_pi_q    <= '0;
      cq_ph_q    <= 1'b1;
      irq_pend_q <= 1'b0;
      tmr_run_q  <= 1'b0;
      tmr_q      <= '0;
      wr_valid_q <= 1'b0;
      wr_q       <= '0;
    end else if (s_act) begin  // (otherwise every _d equals its _q)
      head_q     <= head_d;
      hphase_q   <= hphase_d;
      wb_cnt_q   <= wb_cnt_d;
      irq_cnt_q  <= irq_cnt_d;
      wb_pend_q  <= wb_pend_d;
      wb_a_q     <= wb_a_d;
      wb_w_q     <= wb_w_d;
      wb_l_q     <= wb_l_d;
      wb_n_q     <= wb_n_d;
      cq_pi_q    <= cq_pi_d;
      cq_ph_q    <= cq_ph_d;
      irq_pend_q <= irq_pend_d;
      tmr_run_q  <= tmr_run_d;
      // (the count-down also loses the clocks left out: skip_i)
      if (tmr_dec) tmr_q <= (tmr_d > skip_i) ? tmr_d - skip_i : '0;
      else         tmr_q <= tmr_d;
      wr_valid_q <= wr_valid_d;
      wr_q       <= wr_d;
    end
  end

`ifndef SYNTHESIS
  // Completions counted but not yet reported, as the checker sees them.
  logic [16:0] unrep_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) unrep_q <= '0;
    else unrep_q <= unrep_q + {16'd0, pkt_done_s} - (wb_due ? {1'b0, wb_cnt_q} : 17'd0);
  end
  // Queues: a completion write is owed to queue q from its interrupt's
  // trigger (with completions not yet written) until one goes out.
  logic [NumQueues-1:0] mq_owe_q, mq_owe_d;
  always_comb begin
    mq_owe_d = mq_owe_q;
    if (m_send) mq_owe_d[mw_q] = 1'b0;
    if (m_trig_c && m_force_c) mq_owe_d[pkt_q_i] = 1'b1;
    if (m_trig_t && m_force_t) mq_owe_d[tf_hq] = 1'b1;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) mq_owe_q <= '0;
    else mq_owe_q <= mq_owe_d;
  end
  // Immediate assertions at the rising edge, on the values before it (cheaper
  // in Verilator 5.006 than concurrent ones: nictx_dma_rd.sv says why).
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // A completion write reports only completed descriptors: the one it
      // names is the last completed when it is captured (never one still on
      // its way to the wire).
      CplWriteNotAhead_A: assert (!wb_due || (wb_cnt_q != '0 && {1'b0, wb_cnt_q} <= unrep_q));
      // A DD writeback lands on word 1 of a descriptor inside the ring.
      DdAddrInRing_A: assert (!(wb_due && cpl_mode_i == nictx_reg_pkg::CplModeDescWb) ||
                              (wb_a_d >= ring_base_i &&
                               wb_a_d - ring_base_i < ({48'd0, mask} + 64'd1) * 64'd16 &&
                               wb_a_d[3:0] == 4'd12));
      // A CQE lands inside the CQ, 8-byte aligned.
      CqeAddrInCq_A: assert (!(wb_due && cpl_mode_i == nictx_reg_pkg::CplModeCq) ||
                             (wb_a_d >= cq_base_i &&
                              wb_a_d - cq_base_i < ({48'd0, cq_mask} + 64'd1) * 64'd8 &&
                              wb_a_d[2:0] == 3'd0));
      // An interrupt goes out only when every completion counted before it has
      // been captured for a completion write (when those are on).
      IrqAfterCplWrite_A: assert (!irq_due || (!wb_on || wb_due || wb_cnt_q == '0));
      // Queues: the single-queue logic stays idle.
      MultiHeadWbOnly_A: assert (!multi_i || (!wb_due && !irq_due && !wb_pend_q && !irq_pend_q));
      // No message on a masked vector.
      NoMaskedIrq_A: assert (!(irq_pend_q && !irq_pend_d && msix_mask_i[0]));
      MqNoMaskedIrq_A: assert (!mi_send || !msix_mask_i[mi_q]);
      // A queue's interrupt goes out only after the completion write that
      // covers what it signals (mq_owe_q: one is owed since its trigger).
      MqIrqAfterCplWrite_A: assert (!mi_send || !mq_owe_q[mi_q]);
      // A queue's CQE lands inside its CQ; its DD write on word 1 of a
      // descriptor inside its ring.
      MqCqeAddrInCq_A: assert (!(m_send && wr_valid_d && cpl_mode_i == nictx_reg_pkg::CplModeCq) ||
                               (wr_d.addr >= w_cfg_i.cq_base &&
                                wr_d.addr - w_cfg_i.cq_base < ({48'd0, w_cmask} + 64'd1) * 64'd8 &&
                                wr_d.addr[2:0] == 3'd0));
      MqDdAddrInRing_A: assert (!(m_send && cpl_mode_i == nictx_reg_pkg::CplModeDescWb) ||
                                (wr_d.addr >= w_cfg_i.ring_base &&
                                 wr_d.addr - w_cfg_i.ring_base <
                                 ({48'd0, w_mask} + 64'd1) * 64'd16 &&
                                 wr_d.addr[3:0] == 4'd12));
      // A DESC_WB_FULL write: whole descriptors, at least one, within one
      // MPS-aligned block of the MPS.
      FullWbInMps_A: assert (!(wr_valid_q && wr_q.len > 13'd8) ||
                             (cpl_mode_i == nictx_reg_pkg::CplModeDescWbFull &&
                              wr_q.len[3:0] == 4'd0 && wr_q.addr[3:0] == 4'd0 &&
                              {1'b0, wr_q.addr[12:0] & ((13'd1 << mps_log2_i) - 13'd1)} +
                              {1'b0, wr_q.len} <= (14'd1 << mps_log2_i)));
      // The timer FIFO never overflows (a start with it full pops its head).
      TimerFifoNoOverflow_A: assert (!(m_start && tf_full && !tf_pop));
    end
  end
`endif

`ifndef SYNTHESIS
`ifdef NICTX_COVER
  // Functional cover points, named as in sim/lib/cover.h (docs/coverage.md):
  // compiled only by make coverage (+define+NICTX_COVER, --coverage-user);
  // the C model counts the same terms (c-model/cm_engine.c, cover_sample).
  // An interrupt raised by the moderation timer (one queue; or the timer FIFO's).
  mod_timer: cover property (@(posedge clk_i) disable iff (!rst_ni)
      multi_i ? m_trig_t : irq_due && irq_timer_i != '0 && tmr_run_q && tmr_q == '0);
`endif
`endif

endmodule
