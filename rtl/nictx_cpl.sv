// SPDX-License-Identifier: Apache-2.0
// nictx_cpl: transmit completions: head index, head writeback, interrupts.
//
// head_o is the ring index of the next descriptor to complete; it moves on
// each pkt_done_i.  Head writeback: a posted 4-byte MWr of the head index to
// wb_addr_i after every wb_thresh_i completions, and whenever the queue goes
// idle (head reaches the tail) with completions not yet written back.  The
// interrupt: a 4-byte MWr of irq_data_i to irq_addr_i (an MSI-X message)
// after every irq_thresh_i completions, and likewise when the queue goes
// idle (standing in for the moderation timer).  A threshold of 0 (or a
// writeback address of 0) turns that write off.  When both are due the
// writeback goes first, so the host sees the new head before the interrupt.
//
// Handshake: wr_valid_o never waits for wr_ready_i; fields are registers.
module nictx_cpl (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [4:0]  ring_log2_i,
  input  logic [15:0] tail_i,
  input  logic        pkt_done_i,
  input  logic [15:0] wb_thresh_i,
  input  logic [63:0] wb_addr_i,
  input  logic [15:0] irq_thresh_i,
  input  logic [63:0] irq_addr_i,
  input  logic [31:0] irq_data_i,
  output logic [15:0] head_o,
  // Posted write out (4 bytes; data lanes follow addr[2])
  output logic        wr_valid_o,
  input  logic        wr_ready_i,
  output logic [63:0] wr_addr_o,
  output logic [63:0] wr_data_o,
  output logic        idle_o
);

  logic [15:0] head_d, head_q;
  logic [15:0] wb_cnt_d, wb_cnt_q;
  logic [15:0] irq_cnt_d, irq_cnt_q;
  logic        wb_pend_d, wb_pend_q;      // a writeback waits to go out
  logic [15:0] wb_val_d, wb_val_q;
  logic        irq_pend_d, irq_pend_q;
  logic        wr_valid_d, wr_valid_q;
  logic [63:0] wr_addr_d, wr_addr_q;
  logic [63:0] wr_data_d, wr_data_q;
  logic [15:0] mask;
  logic        wb_on, irq_on, at_tail, wb_due, irq_due;

  always_comb begin
    mask    = 16'((17'd1 << ring_log2_i) - 17'd1);
    wb_on   = wb_thresh_i != '0 && wb_addr_i != '0;
    irq_on  = irq_thresh_i != '0;
    at_tail = head_q == tail_i;
    wb_due  = wb_on && !wb_pend_q && wb_cnt_q != '0 && (wb_cnt_q >= wb_thresh_i || at_tail);
    irq_due = irq_on && !irq_pend_q && irq_cnt_q != '0 && (irq_cnt_q >= irq_thresh_i || at_tail);

    head_d     = head_q;
    wb_cnt_d   = wb_cnt_q;
    irq_cnt_d  = irq_cnt_q;
    wb_pend_d  = wb_pend_q;
    wb_val_d   = wb_val_q;
    irq_pend_d = irq_pend_q;
    wr_valid_d = wr_valid_q;
    wr_addr_d  = wr_addr_q;
    wr_data_d  = wr_data_q;

    // Capture what is due; count completions that arrive meanwhile afresh.
    if (wb_due) begin
      wb_pend_d = 1'b1;
      wb_val_d  = head_q;
      wb_cnt_d  = '0;
    end
    if (irq_due) begin
      irq_pend_d = 1'b1;
      irq_cnt_d  = '0;
    end
    if (pkt_done_i) begin
      head_d    = (head_q + 16'd1) & mask;
      wb_cnt_d  = wb_cnt_d + 16'd1;
      irq_cnt_d = irq_cnt_d + 16'd1;
    end

    // Output register: writeback before interrupt.
    if (wr_valid_q && wr_ready_i) wr_valid_d = 1'b0;
    if (!wr_valid_q || wr_ready_i) begin
      if (wb_pend_q) begin
        wr_valid_d = 1'b1;
        wr_addr_d  = wb_addr_i;
        wr_data_d  = wb_addr_i[2] ? {16'd0, wb_val_q, 32'd0} : {48'd0, wb_val_q};
        wb_pend_d  = 1'b0;
      end else if (irq_pend_q) begin
        wr_valid_d = 1'b1;
        wr_addr_d  = irq_addr_i;
        wr_data_d  = irq_addr_i[2] ? {irq_data_i, 32'd0} : {32'd0, irq_data_i};
        irq_pend_d = 1'b0;
      end
    end
  end

  assign head_o     = head_q;
  assign wr_valid_o = wr_valid_q;
  assign wr_addr_o  = wr_addr_q;
  assign wr_data_o  = wr_data_q;
  assign idle_o     = !wr_valid_q && !wb_pend_q && !irq_pend_q && !wb_due && !irq_due;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      head_q     <= '0;
      wb_cnt_q   <= '0;
      irq_cnt_q  <= '0;
      wb_pend_q  <= 1'b0;
      wb_val_q   <= '0;
      irq_pend_q <= 1'b0;
      wr_valid_q <= 1'b0;
      wr_addr_q  <= '0;
      wr_data_q  <= '0;
    end else begin
      head_q     <= head_d;
      wb_cnt_q   <= wb_cnt_d;
      irq_cnt_q  <= irq_cnt_d;
      wb_pend_q  <= wb_pend_d;
      wb_val_q   <= wb_val_d;
      irq_pend_q <= irq_pend_d;
      wr_valid_q <= wr_valid_d;
      wr_addr_q  <= wr_addr_d;
      wr_data_q  <= wr_data_d;
    end
  end

endmodule
