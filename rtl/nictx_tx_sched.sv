// SPDX-License-Identifier: Apache-2.0
// nictx_tx_sched: the transmit scheduler: which queue's next descriptor
// leaves the descriptor fetcher next, round robin or deficit round robin by
// frame bytes with per-queue weights.
//
// Ports: rdy_i (queues with a ready head) and backlog_i in; q_o names the
// candidate, answered in the same cycle with its head's len_i and bad_i and
// its weight_i; valid_o: it may leave, never waiting for take_i; q_o and
// valid_o hold until take_i or flush_i.  With multi_i low q_o is 0.
// Theory of operation: docs/device.md, "Transmit scheduler: nictx_tx_sched".
module nictx_tx_sched #(
  parameter int unsigned NumQueues = 64,
  localparam int unsigned QW       = (NumQueues > 1) ? $clog2(NumQueues) : 1
) (
  input  logic          clk_i,
  // verilator lint_off SYNCASYNCNET
  input  logic          rst_ni,      // also in the simulation-only assertions' enable
  // verilator lint_on SYNCASYNCNET
  input  logic          multi_i,     // QUEUES > 1
  input  logic          drr_i,       // SCHED DRR
  input  logic [nictx_reg_pkg::DrrQuantumValueWidth-1:0] quantum_i,  // DRR_QUANTUM, bytes
  input  logic [NumQueues-1:0] rdy_i,
  input  logic [NumQueues-1:0] backlog_i,  // descriptors not yet fetched: not empty
  output logic [QW-1:0] q_o,
  input  logic [nictx_pkg::LenW-1:0] len_i,  // q_o's head: frame bytes
  input  logic          bad_i,       // ... bad (costs 0)
  input  logic [nictx_reg_pkg::QWeightValueWidth-1:0] weight_i,  // q_o's WEIGHT
  output logic          valid_o,
  input  logic          take_i,
  input  logic          flush_i,     // the fetcher takes q_o's head back (an owner-protocol flush)
  output logic          wait_o       // no state changes on this clock (simulation speed)
);

  // Deficit: one kept between turns is < 16384 (the head costs more) or at
  // most KeepMax (waiting for the fetcher: saturated); raised by a turn's
  // quantum (<= 255 * 65536) it stays <= DefMax < 2^DefW.
  localparam int unsigned DefW = 26;
  localparam logic [DefW-1:0] KeepMax = DefW'(1) << (DefW - 1);
  localparam logic [DefW-1:0] DefMax  = KeepMax + DefW'(255 * 65536);

  logic [QW-1:0]   ptr_d, ptr_q;      // RR pointer: the next turn starts here
  logic            hold_d, hold_q;    // valid_o was high, not yet taken: keep q_o
  logic [QW-1:0]   hq_d, hq_q;        // ... this queue (or: the queue in its DRR turn)
  logic            turn_d, turn_q;    // DRR: hq_q's turn is on
  logic [DefW-1:0] def_m [NumQueues]; // DRR deficits
  logic            def_we;
  logic [DefW-1:0] def_wd, def;
  logic [QW-1:0]   pick;
  logic            any;
  logic [13:0]     cost;              // DRR: q_o's head's cost (computed there only)

  // The picker needs two requesters at least: with NumQueues 1 the second
  // never asks (and multi_i is never set: QUEUES is 1).
  localparam int unsigned NP = (NumQueues > 1) ? NumQueues : 2;
  logic [NumQueues-1:0] pick_req;
  assign pick_req = multi_i ? rdy_i : '0;  // one queue: nothing to pick

  prim_rr_pick #(
    .N (NP)
  ) u_pick (
    .req_i   (NP'(pick_req)),
    .ptr_i   (ptr_q),
    .idx_o   (pick),
    .valid_o (any)
  );

  // The candidate first (its head's cost comes back from the fetcher),
  // then whether it may leave; the state updates (on take_i) apart.
  always_comb begin
    // (drr_i read only with several queues: DRR needs them.)
    if (!multi_i)  q_o = '0;
    else if (!drr_i) q_o = hold_q ? hq_q : pick;
    else           q_o = turn_q ? hq_q : pick;
  end

  always_comb begin
    // DRR: a turn on: the queue's deficit; a new turn: raised by its quantum.
    def  = '0;
    cost = '0;
    if (!multi_i) begin
      valid_o = rdy_i[0];
    end else if (!drr_i) begin
      valid_o = rdy_i[q_o];
    end else begin
      cost = bad_i ? 14'd0 : len_i;
      def  = def_m[q_o];
      if (!turn_q) def = def + DefW'(weight_i) * DefW'(quantum_i);
      valid_o = rdy_i[q_o] && DefW'(cost) <= def;
    end
  end

  // One queue: only hold_q moves (to 0); the other flops keep their value
  // and their *_d are unused (written only with several queues, below).
  always_comb begin
    ptr_d  = '0;
    hold_d = 1'b0;
    hq_d   = '0;
    turn_d = 1'b0;
    def_we = 1'b0;
    def_wd = '0;
    wait_o = !hold_q;  // one queue: nothing else changes
    if (multi_i) begin
      ptr_d  = ptr_q;
      hold_d = hold_q;
      hq_d   = hq_q;
      turn_d = turn_q;
      if (!drr_i) begin
        hold_d  = valid_o && !take_i && !flush_i;
        hq_d    = q_o;
        if (valid_o && take_i) ptr_d = q_o + 1'b1;
      end else begin
        if (turn_q || any) begin
          def_we = 1'b1;
          hq_d   = q_o;
          if (valid_o && !flush_i) begin
            // Stay in the turn; a taken descriptor pays its cost.
            turn_d = 1'b1;
            def_wd = take_i ? def - DefW'(cost) : def;
          end else begin
            // The head costs more than the deficit (kept), or the queue has
            // nothing ready (or its head is taken back: flush_i): empty (the
            // deficit goes), or its descriptors are still being fetched (the
            // deficit stays, saturating at KeepMax; without this turn's
            // quantum if the turn is only starting).
            turn_d = 1'b0;
            if (rdy_i[q_o] && !flush_i) def_wd = def;
            else if (!backlog_i[q_o])   def_wd = '0;
            else if (!turn_q)           def_wd = def_m[q_o];
            else                        def_wd = def > KeepMax ? KeepMax : def;
            ptr_d  = q_o + 1'b1;
          end
        end
      end
      // DRR writes a deficit on every clock of a turn or a pick.
      wait_o = !def_we && ptr_d == ptr_q && hold_d == hold_q && hq_d == hq_q &&
               turn_d == turn_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ptr_q  <= '0;
      hold_q <= 1'b0;
      hq_q   <= '0;
      turn_q <= 1'b0;
      for (int unsigned q = 0; q < NumQueues; q++) def_m[q] <= '0;
    end else begin
      if (multi_i) begin
        ptr_q  <= ptr_d;
        hold_q <= hold_d;
        hq_q   <= hq_d;
        turn_q <= turn_d;
      end else begin
        hold_q <= 1'b0;
      end
      if (def_we) def_m[hq_d] <= def_wd;
    end
  end

`ifndef SYNTHESIS
  // Immediate assertions at the rising edge, on the values before it
  // (cheaper in Verilator 5.006 than concurrent ones: nictx_dma_rd.sv says
  // why); the hold rule keeps the previous cycle in checker-only flops.
  logic          hold_chk_q;  // a candidate was offered and not taken
  logic [QW-1:0] q_past_q;    // ... this one
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) hold_chk_q <= 1'b0;
    else         hold_chk_q <= multi_i && valid_o && !take_i && !flush_i;
  end
  always @(posedge clk_i) q_past_q <= q_o;
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // A held candidate stays until taken (valid/ready).
      // (An owner-protocol flush may take the head back instead: flush_i.)
      SchedHold_A: assert (!hold_chk_q || (valid_o && q_o == q_past_q));
      // Only a ready queue's descriptor leaves.
      SchedTakeReady_A: assert (!take_i || (valid_o && rdy_i[q_o]));
      // A deficit stays within its bound (DefMax), and raising it by a
      // turn's quantum never wraps.
      SchedDeficitBound_A: assert (!def_we || def_wd <= DefMax);
      SchedDeficitNoWrap_A: assert (!multi_i || !drr_i || turn_q || def >= def_m[q_o]);
    end
  end
`endif

`ifndef SYNTHESIS
`ifdef NICTX_COVER
  // Functional cover points, named as in sim/lib/cover.h (docs/coverage.md):
  // compiled only by make coverage (+define+NICTX_COVER, --coverage-user);
  // the C model counts the same terms (c-model/cm_engine.c, cover_sample).
  // A DRR turn ends with the queue's deficit kept for its next turn.
  drr_carry: cover property (@(posedge clk_i) disable iff (!rst_ni)
      drr_i && def_we && !turn_d && rdy_i[q_o] && !flush_i && def_wd != '0);
`endif
`endif

endmodule
