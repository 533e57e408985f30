// SPDX-License-Identifier: Apache-2.0
// prim_rr_pick: round-robin pick among N requesters, combinational, the
// priority pointer kept by the user (so it can move on a grant, a skip or
// the end of a turn, as the user decides).
//
// idx_o is the first requester at or after ptr_i (wrapping), valid_o is
// |req_i; with no request idx_o is 0.  Cheap for a wide N: a mask, an
// isolate-lowest-bit and an OR per index bit, no loop over the
// requesters (prim_arbiter_rr scans N positions: fine for a handful).
// Theory of operation: docs/device.md, "Primitives".
module prim_rr_pick #(
  parameter int unsigned N = 64,
  localparam int unsigned IdxW = (N > 1) ? $clog2(N) : 1
) (
  input  logic [N-1:0]    req_i,
  input  logic [IdxW-1:0] ptr_i,
  output logic [IdxW-1:0] idx_o,
  output logic            valid_o
);

  if (N < 2 || (N & (N - 1)) != 0) begin : gen_n_check
    $error("prim_rr_pick: N must be a power of two >= 2");
  end

  // Column masks: bit i of IdxMask[b] is bit b of i.
  function automatic logic [IdxW*N-1:0] idx_masks();
    idx_masks = '0;
    for (int unsigned b = 0; b < IdxW; b++) begin
      for (int unsigned i = 0; i < N; i++) begin
        idx_masks[b * N + i] = ((i >> b) & 1) != 0;
      end
    end
  endfunction
  localparam logic [IdxW*N-1:0] IdxMask = idx_masks();

  logic [N-1:0] hi, sel, one;

  always_comb begin
    hi    = '0;
    sel   = '0;
    one   = '0;
    idx_o = '0;
    valid_o = req_i != '0;
    if (valid_o) begin  // (nothing to pick: no work, in simulation too)
      hi  = req_i & ~((N'(1) << ptr_i) - N'(1));  // requesters at or after ptr_i
      sel = (hi != '0) ? hi : req_i;
      one = sel & (~sel + N'(1));                 // its lowest set bit
      for (int unsigned b = 0; b < IdxW; b++) idx_o[b] = |(one & IdxMask[b * N +: N]);
    end
  end

endmodule
