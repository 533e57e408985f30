// SPDX-License-Identifier: Apache-2.0
// prim_arbiter_rr: round-robin arbiter for N valid/ready requesters.
//
// gnt_o is one-hot (or zero) and depends only on req_i and the priority
// pointer, never on ready_i, so a requester's valid never waits for ready.
// The pointer moves past the winner only when the grant is accepted
// (ready_i high), so a held request keeps its grant and its data stable.
// Theory of operation: docs/device.md, "Primitives".
module prim_arbiter_rr #(
  parameter int unsigned N = 2,
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [N-1:0]    req_i,
  input  logic            ready_i,
  output logic [N-1:0]    gnt_o,
  output logic [IdxW-1:0] idx_o,
  output logic            valid_o
);

  if (N < 2) begin : gen_n_check
    $error("prim_arbiter_rr: N must be >= 2");
  end

  localparam logic [IdxW-1:0] LastIdx = IdxW'(N - 1);
  logic [IdxW-1:0] prio_q;  // requester with the highest priority
  logic found;

  always_comb begin
    logic [2*N-1:0] rot;  // the requests rotated down by prio_q: bit k is position prio_q + k
    int i;
    rot   = '0;
    i     = 0;
    gnt_o = '0;
    idx_o = '0;
    found = 1'b0;
    // Scan N positions starting at prio_q, wrapping (only with a request:
    // without one nothing is granted, in simulation too).
    if (req_i != '0) begin
      rot = {req_i, req_i} >> prio_q;
      for (int k = 0; k < N; k++) begin
        if (!found && rot[k]) begin
          found = 1'b1;
          i     = k + 32'(prio_q);
          if (i >= N) i = i - N;
        end
      end
      idx_o = IdxW'(i);
      gnt_o = N'(1) << idx_o;
    end
    valid_o = found;
  end

  // The pointer moves past an accepted grant's winner (an enabled flop).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      prio_q <= '0;
    end else if (found && ready_i) begin
      prio_q <= (idx_o == LastIdx) ? '0 : idx_o + 1'b1;
    end
  end

endmodule
