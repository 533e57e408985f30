// SPDX-License-Identifier: Apache-2.0
// nictx_cpl: transmit completions: head index, completion writes, interrupts.
//
// head_o is the ring index of the next descriptor to complete; it moves on
// each pkt_done_i.
//
// Completion write (docs/device.md, Completions and interrupts): after
// every wb_thresh_i completions, and whenever the queue goes idle (head
// reaches the tail) with completions not yet reported, and before an
// interrupt, one posted MWr reports the batch, per cpl_mode_i:
//  - HEAD_WB: 4 bytes, the head index, to wb_addr_i (0: off);
//  - DESC_WB: 4 bytes to word 1's upper half (byte 12) of the batch's last
//    descriptor: the DD bit (NICTX_DESC_DD, bit 0) and, in bit 31, the
//    phase of the ring pass it belongs to (1 on the first pass): the owner
//    bit it carries under the owner protocols, and under every protocol
//    what tells the driver a DD of this pass from a stale one;
//  - CQ: an 8-byte CQE to cq_base_i + 8 * producer index (cq_base_i 0:
//    off): [15:0] the batch's last descriptor index, [31:16] its number of
//    completions, [63] the phase: 1 on the first pass over the CQ, flipped
//    on each wrap.  The device does not check the CQ for overflow: the
//    driver sizes it so that it cannot (at most one CQE per completion).
// wb_thresh_i 0 turns the completion write off.
//
// Interrupt: a 4-byte MWr of irq_data_i to irq_addr_i (an MSI-X message)
// when irq_thresh_i completions are not yet signalled (0: no threshold), or
// when the moderation timer expires: it starts at the first completion not
// yet signalled and runs irq_timer_i device cycles (0: no timer).  With
// both 0 there are no interrupts.  An interrupt goes out only after a
// completion write that covers every completion counted so far, so the
// host sees them when it takes the interrupt.
//
// Queues (multi_i: QUEUES > 1; docs/device.md, Queues): only head
// writeback, no interrupts (nictx_regs refuses anything else).  Each
// queue has its head and its count of unreported completions, arrays
// indexed by queue; pkt_done_i advances pkt_q_i's (its ring size, tail and
// writeback address come from the register block through c_q_o).  A
// queue's completion write is due after wb_thresh_i of its completions or
// when its head reaches its tail, if its WB_ADDR is not 0: the queue's bit
// in a pending mask is set, and the output register sends the pending
// queues round robin (prim_rr_pick), each one 4-byte MWr of its head now
// to its WB_ADDR (w_q_o, w_wb_addr_i).  The single-queue logic above then
// stays idle.  hr_head_o is the head of queue hr_q_i (register reads).
//
// Handshake: wr_valid_o never waits for wr_ready_i; fields are registers.
module nictx_cpl #(
  parameter int unsigned NumQueues = 64,
  localparam int unsigned QW       = (NumQueues > 1) ? $clog2(NumQueues) : 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        multi_i,       // QUEUES > 1
  input  logic [QW-1:0] pkt_q_i,     // pkt_done_i's queue
  output logic [QW-1:0] c_q_o,       // = pkt_q_i: the queue c_* describe
  input  logic [4:0]  c_ring_log2_i,
  input  logic [15:0] c_tail_i,
  input  logic [63:0] c_wb_addr_i,
  output logic [QW-1:0] w_q_o,       // the queue whose completion write goes out next
  input  logic [63:0] w_wb_addr_i,   // ... its WB_ADDR
  input  logic [QW-1:0] hr_q_i,
  output logic [15:0] hr_head_o,
  input  logic [4:0]  ring_log2_i,
  input  logic [15:0] tail_i,
  input  logic        pkt_done_i,
  input  logic [1:0]  cpl_mode_i,
  input  logic [63:0] ring_base_i,
  input  logic [63:0] cq_base_i,
  input  logic [4:0]  cq_log2_i,
  input  logic [15:0] wb_thresh_i,
  input  logic [63:0] wb_addr_i,
  input  logic [15:0] irq_thresh_i,
  input  logic [23:0] irq_timer_i,
  input  logic [63:0] irq_addr_i,
  input  logic [31:0] irq_data_i,
  output logic [15:0] head_o,
  // Posted write out (4 or 8 bytes; data lanes follow addr[2])
  output logic        wr_valid_o,
  input  logic        wr_ready_i,
  output logic [63:0] wr_addr_o,
  output logic [63:0] wr_data_o,
  output logic [3:0]  wr_len_o,
  output logic        timer_o,      // the moderation timer runs
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
  logic [15:0] cq_pi_d, cq_pi_q;        // CQ producer index and phase
  logic        cq_ph_d, cq_ph_q;
  logic        irq_pend_d, irq_pend_q;
  logic        tmr_run_d, tmr_run_q;
  logic [23:0] tmr_d, tmr_q;
  logic        wr_valid_d, wr_valid_q;
  logic [63:0] wr_addr_d, wr_addr_q;
  logic [63:0] wr_data_d, wr_data_q;
  logic [3:0]  wr_len_d, wr_len_q;
  logic [15:0] mask, cq_mask, last;
  logic        wb_on, irq_on, at_tail, wb_due, irq_trig, irq_due, last_ph;
  logic [31:0] dd_word;

  // Queues (multi_i)
  logic [15:0] mhead_m [NumQueues];     // head per queue
  logic [15:0] mcnt_m  [NumQueues];     // completions not yet reported, per queue
  logic [NumQueues-1:0] mpend_d, mpend_q;  // a completion write is due
  logic [QW-1:0] mptr_d, mptr_q;        // round robin over the pending ones
  logic [QW-1:0] mw_q;
  logic          mw_any, m_send, m_due;
  logic [15:0]   m_mask, m_head, m_cnt;
  logic          pkt_done_s;            // a completion for the single-queue logic

  assign pkt_done_s = pkt_done_i && !multi_i;

  prim_rr_pick #(
    .N (NumQueues > 1 ? NumQueues : 2)
  ) u_wb_pick (
    .req_i   ((NumQueues > 1 ? NumQueues : 2)'(mpend_q)),
    .ptr_i   ((NumQueues > 1 ? QW : 1)'(mptr_q)),
    .idx_o   (mw_q),
    .valid_o (mw_any)
  );

  always_comb begin
    mask    = 16'((17'd1 << ring_log2_i) - 17'd1);
    cq_mask = 16'((17'd1 << cq_log2_i) - 17'd1);
    unique case (cpl_mode_i)
      nictx_reg_pkg::CplModeDescWb: wb_on = wb_thresh_i != '0;
      nictx_reg_pkg::CplModeCq:     wb_on = wb_thresh_i != '0 && cq_base_i != '0;
      default:                      wb_on = wb_thresh_i != '0 && wb_addr_i != '0;
    endcase
    irq_on  = irq_thresh_i != '0 || irq_timer_i != '0;
    at_tail = head_q == tail_i;
    // An interrupt is due; it waits for a completion write that covers
    // every completion so far (one already waiting to go out may not).
    irq_trig = irq_on && !irq_pend_q && irq_cnt_q != '0 &&
               ((irq_thresh_i != '0 && irq_cnt_q >= irq_thresh_i) ||
                (irq_timer_i != '0 && tmr_run_q && tmr_q == '0));
    irq_due = irq_trig && !(wb_on && wb_pend_q && wb_cnt_q != '0);
    wb_due  = wb_on && !wb_pend_q && wb_cnt_q != '0 &&
              (wb_cnt_q >= wb_thresh_i || at_tail || irq_trig);
    // The batch's last descriptor and the phase of its pass.
    last    = (head_q - 16'd1) & mask;
    last_ph = head_q == '0 ? !hphase_q : hphase_q;
    dd_word = {last_ph, 30'd0, 1'b1};

    head_d     = head_q;
    hphase_d   = hphase_q;
    wb_cnt_d   = wb_cnt_q;
    irq_cnt_d  = irq_cnt_q;
    wb_pend_d  = wb_pend_q;
    wb_a_d     = wb_a_q;
    wb_w_d     = wb_w_q;
    wb_l_d     = wb_l_q;
    cq_pi_d    = cq_pi_q;
    cq_ph_d    = cq_ph_q;
    irq_pend_d = irq_pend_q;
    tmr_run_d  = tmr_run_q;
    tmr_d      = tmr_q;
    wr_valid_d = wr_valid_q;
    wr_addr_d  = wr_addr_q;
    wr_data_d  = wr_data_q;
    wr_len_d   = wr_len_q;

    if (tmr_run_q && tmr_q != '0) tmr_d = tmr_q - 24'd1;

    // Capture what is due; count completions that arrive meanwhile afresh.
    if (wb_due) begin
      wb_pend_d = 1'b1;
      wb_cnt_d  = '0;
      unique case (cpl_mode_i)
        nictx_reg_pkg::CplModeDescWb: begin
          wb_a_d = ring_base_i + {44'd0, last, 4'd12};
          wb_w_d = {dd_word, 32'd0};
          wb_l_d = 4'd4;
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
    end
    if (pkt_done_s) begin
      head_d    = (head_q + 16'd1) & mask;
      if (head_d == '0) hphase_d = !hphase_q;
      wb_cnt_d  = wb_cnt_d + 16'd1;
      // The first completion not yet signalled starts the timer.
      if (irq_cnt_d == '0 && irq_timer_i != '0) begin
        tmr_run_d = 1'b1;
        tmr_d     = irq_timer_i;
      end
      irq_cnt_d = irq_cnt_d + 16'd1;
    end

    // Output register: the completion write before the interrupt.
    if (wr_valid_q && wr_ready_i) wr_valid_d = 1'b0;
    if (!wr_valid_q || wr_ready_i) begin
      if (wb_pend_q) begin
        wr_valid_d = 1'b1;
        wr_addr_d  = wb_a_q;
        wr_data_d  = wb_w_q;
        wr_len_d   = wb_l_q;
        wb_pend_d  = 1'b0;
      end else if (irq_pend_q) begin
        wr_valid_d = 1'b1;
        wr_addr_d  = irq_addr_i;
        wr_data_d  = irq_addr_i[2] ? {irq_data_i, 32'd0} : {32'd0, irq_data_i};
        wr_len_d   = 4'd4;
        irq_pend_d = 1'b0;
      end else if (m_send) begin
        wr_valid_d = 1'b1;
        wr_addr_d  = w_wb_addr_i;
        wr_data_d  = w_wb_addr_i[2] ? {16'd0, mhead_m[mw_q], 32'd0} : {48'd0, mhead_m[mw_q]};
        wr_len_d   = 4'd4;
      end
    end
  end

  // Queues: the completing queue's head and count; the pending mask.
  always_comb begin
    m_send  = 1'b0;
    m_mask  = '0;
    m_head  = '0;
    m_cnt   = '0;
    m_due   = 1'b0;
    mpend_d = mpend_q;
    mptr_d  = mptr_q;
    if (multi_i) begin  // (only then: one queue skips all of this)
      m_send = mw_any && (!wr_valid_q || wr_ready_i) && !wb_pend_q && !irq_pend_q;
      if (pkt_done_i) begin
        m_mask = 16'((17'd1 << c_ring_log2_i) - 17'd1);
        m_head = (mhead_m[pkt_q_i] + 16'd1) & m_mask;
        m_cnt  = mcnt_m[pkt_q_i] + 16'd1;
        m_due  = wb_thresh_i != '0 && c_wb_addr_i != '0 &&
                 (m_cnt >= wb_thresh_i || m_head == c_tail_i);
      end
      if (m_send) begin
        mpend_d[mw_q] = 1'b0;
        mptr_d        = mw_q + 1'b1;
      end
      if (m_due) mpend_d[pkt_q_i] = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned q = 0; q < NumQueues; q++) begin
        mhead_m[q] <= '0;
        mcnt_m[q]  <= '0;
      end
      mpend_q <= '0;
      mptr_q  <= '0;
    end else begin
      if (multi_i && pkt_done_i) begin
        mhead_m[pkt_q_i] <= m_head;
        mcnt_m[pkt_q_i]  <= m_due ? 16'd0 : m_cnt;
      end
      mpend_q <= mpend_d;
      mptr_q  <= mptr_d;
    end
  end

  assign c_q_o     = pkt_q_i;
  assign w_q_o     = mw_q;
  assign hr_head_o = multi_i ? mhead_m[hr_q_i] : head_q;

  assign head_o     = head_q;
  assign wr_valid_o = wr_valid_q;
  assign wr_addr_o  = wr_addr_q;
  assign wr_data_o  = wr_data_q;
  assign wr_len_o   = wr_len_q;
  assign timer_o    = tmr_run_q;
  assign idle_o     = !wr_valid_q && !wb_pend_q && !irq_pend_q && !wb_due && !irq_due &&
                      mpend_q == '0;

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
      cq_pi_q    <= '0;
      cq_ph_q    <= 1'b1;
      irq_pend_q <= 1'b0;
      tmr_run_q  <= 1'b0;
      tmr_q      <= '0;
      wr_valid_q <= 1'b0;
      wr_addr_q  <= '0;
      wr_data_q  <= '0;
      wr_len_q   <= '0;
    end else begin
      head_q     <= head_d;
      hphase_q   <= hphase_d;
      wb_cnt_q   <= wb_cnt_d;
      irq_cnt_q  <= irq_cnt_d;
      wb_pend_q  <= wb_pend_d;
      wb_a_q     <= wb_a_d;
      wb_w_q     <= wb_w_d;
      wb_l_q     <= wb_l_d;
      cq_pi_q    <= cq_pi_d;
      cq_ph_q    <= cq_ph_d;
      irq_pend_q <= irq_pend_d;
      tmr_run_q  <= tmr_run_d;
      tmr_q      <= tmr_d;
      wr_valid_q <= wr_valid_d;
      wr_addr_q  <= wr_addr_d;
      wr_data_q  <= wr_data_d;
      wr_len_q   <= wr_len_d;
    end
  end

`ifndef SYNTHESIS
  // Completions counted but not yet reported, as the checker sees them.
  logic [16:0] unrep_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) unrep_q <= '0;
    else unrep_q <= unrep_q + {16'd0, pkt_done_s} - (wb_due ? {1'b0, wb_cnt_q} : 17'd0);
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
      // Queues: only head writebacks, and the single-queue logic stays idle.
      MultiHeadWbOnly_A: assert (!multi_i || (!wb_due && !irq_due && !wb_pend_q && !irq_pend_q));
    end
  end
`endif

endmodule
