// SPDX-License-Identifier: Apache-2.0
// prim_fifo_sync: synchronous FIFO with valid/ready on both sides.
//
// Write side: wvalid_i/wready_o; a word is taken when both are high.
// Read side: rvalid_o/rready_i; rdata_o is the oldest word while rvalid_o.
// rvalid_o never waits for rready_i, and rdata_o is stable until taken.
// Depth must be a power of two >= 2.  depth_o counts the stored words.
// Theory of operation: docs/device.md, "Primitives".
module prim_fifo_sync #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 4,
  localparam int unsigned PtrW = $clog2(Depth)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             wvalid_i,
  output logic             wready_o,
  input  logic [Width-1:0] wdata_i,
  output logic             rvalid_o,
  input  logic             rready_i,
  output logic [Width-1:0] rdata_o,
  output logic [PtrW:0]    depth_o
);

  // Elaboration-time parameter checks.
  if (Depth < 2 || (Depth & (Depth - 1)) != 0) begin : gen_depth_check
    $error("prim_fifo_sync: Depth must be a power of two >= 2");
  end

  logic [Width-1:0] mem [Depth];
  logic [PtrW:0] wptr_q, rptr_q;
  logic push, pop;

  assign depth_o  = wptr_q - rptr_q;
  // Full (depth_o == Depth): the pointers differ only in the wrap bit.
  // Empty: they are equal.  (From the pointers, not depth_o: most users
  // leave depth_o open, and the simulation then never works it out.)
  assign wready_o = (wptr_q ^ rptr_q) != {1'b1, {PtrW{1'b0}}};
  assign rvalid_o = wptr_q != rptr_q;
  assign rdata_o  = mem[rptr_q[PtrW-1:0]];
  assign push     = wvalid_i && wready_o;
  assign pop      = rvalid_o && rready_i;

  // Storage is written like a RAM (write enable), not copied _d to _q.
  always_ff @(posedge clk_i) begin
    if (push) mem[wptr_q[PtrW-1:0]] <= wdata_i;
  end

  // The pointers move only on a push or a pop (enabled flops: a quiet
  // clock copies nothing).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q <= '0;
    end else if (push) begin
      wptr_q <= wptr_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rptr_q <= '0;
    end else if (pop) begin
      rptr_q <= rptr_q + 1'b1;
    end
  end

endmodule
