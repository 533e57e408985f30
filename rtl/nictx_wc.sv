// nictx_wc: the write-combining descriptor window (BlueFlame) in BAR0.
//
// BAR0 0x200..0x2FF and 0x300..0x3FF are two 256-byte buffers the driver
// fills alternately.  Only the first 64-byte block of each matters:
// bytes 0..7 descriptor word 0, 8..15 descriptor word 1 (owner bit
// included), 16..17 the descriptor's ring index (u16), the rest zero; writes
// to bytes 16..63 other than the index and to bytes 64..255 are accepted and
// ignored.  Each buffer keeps a written bit for its words 0, 1 and 2.
//
// The write of a block's last word (offset 56..63) closes the block:
//  - the close is a doorbell (close_o);
//  - if word 2 was written, tail_o = (index + 1) & ring mask (tail_we_o), or
//    tail_range_o when the index is beyond the ring;
//  - the block is complete when words 0..2 were all written since the
//    previous close and the index is inside the ring: it leaves on blk_*
//    for the descriptor fetcher; otherwise it is dropped (torn_o);
//  - the written bits are cleared.
//
// Accepted writes: MWr of 8..256 bytes, a multiple of 8, at an 8-aligned
// offset, inside the window, and only in nictx_reg_pkg::ProtoWc.  Anything else
// sets bad_access_o on its first beat and is ignored.  Beats carry one
// 8-byte word each (lanes follow the address, which is 8-aligned).
//
// Handshake: every beat offered is taken (the top holds a TLP's first beat
// back while a queue reset is pending, so a reset never lands inside a
// TLP; busy_o says one is in progress); all outputs are single-cycle
// pulses combinational from the beat.
module nictx_wc (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [1:0]  proto_i,
  input  logic [4:0]  ring_log2_i,
  // MWr beats to BAR0 offsets 0x200..0x3FF
  input  logic        req_valid_i,
  input  logic        req_sop_i,
  input  logic        req_eop_i,
  input  logic [12:0] req_len_i,
  input  logic [9:0]  req_off_i,
  input  logic [63:0] req_data_i,
  output logic        bad_access_o,
  // Block close
  output logic        close_o,
  output logic        tail_we_o,
  output logic [15:0] tail_o,
  output logic        tail_range_o,
  output logic        torn_o,
  output logic        blk_valid_o,
  output logic [15:0] blk_idx_o,
  output logic [63:0] blk_w0_o,
  output logic [63:0] blk_w1_o,
  output logic        busy_o      // inside a TLP: a queue reset must wait
);

  // Per buffer b: words at [64*b +: 64], index at [16*b +: 16], written
  // bits {word 2, word 1, word 0} at [3*b +: 3].
  logic [127:0] w0_d, w0_q, w1_d, w1_q;
  logic [31:0]  idx_d, idx_q;
  logic [5:0]   vld_d, vld_q;
  // Beat within the TLP.  An accepted TLP has <= 32 beats, but every TLP
  // the port can carry is counted (a 13-bit length at any lane: up to
  // 1025 beats), so a long one that is refused still ends where it ends.
  localparam int unsigned BeatW = 11;
  logic [BeatW-1:0] beat_d, beat_q;

  logic [6:0]  woff;    // 8-byte word offset in BAR0 of this beat
  logic        bsel;    // buffer
  logic [4:0]  word;    // word within the buffer
  logic [13:0] tlp_end;
  logic        ok, wr;
  logic [2:0]  v, vbase;
  logic [15:0] idx, mask;
  logic        in_ring;

  always_comb begin
    woff    = req_off_i[9:3] + {1'b0, beat_q[5:0]};  // only used while ok
    bsel    = woff[5];
    word    = woff[4:0];
    tlp_end = {4'd0, req_off_i} + {1'b0, req_len_i};
    ok      = proto_i == nictx_reg_pkg::ProtoWc && req_off_i[9] && req_off_i[2:0] == 3'd0 &&
              req_len_i[2:0] == 3'd0 && req_len_i >= 13'd8 && req_len_i <= 13'd256 &&
              tlp_end <= 14'h400;
    wr      = req_valid_i && ok;
    bad_access_o = req_valid_i && req_sop_i && !ok;

    vbase   = bsel ? 3'd3 : 3'd0;
    v       = bsel ? vld_q[5:3] : vld_q[2:0];
    idx     = bsel ? idx_q[31:16] : idx_q[15:0];
    mask    = 16'((17'd1 << ring_log2_i) - 17'd1);
    in_ring = (idx & ~mask) == 16'd0;

    w0_d   = w0_q;
    w1_d   = w1_q;
    idx_d  = idx_q;
    vld_d  = vld_q;
    beat_d = beat_q;
    close_o      = 1'b0;
    tail_we_o    = 1'b0;
    tail_o       = (idx + 16'd1) & mask;
    tail_range_o = 1'b0;
    torn_o       = 1'b0;
    blk_valid_o  = 1'b0;
    blk_idx_o    = idx;
    blk_w0_o     = bsel ? w0_q[127:64] : w0_q[63:0];
    blk_w1_o     = bsel ? w1_q[127:64] : w1_q[63:0];

    if (req_valid_i) beat_d = req_eop_i ? '0 : beat_q + 1'b1;

    if (wr) begin
      unique case (word)
        5'd0: begin
          if (bsel) w0_d[127:64] = req_data_i;
          else      w0_d[63:0]   = req_data_i;
          vld_d[vbase + 3'd0] = 1'b1;
        end
        5'd1: begin
          if (bsel) w1_d[127:64] = req_data_i;
          else      w1_d[63:0]   = req_data_i;
          vld_d[vbase + 3'd1] = 1'b1;
        end
        5'd2: begin
          if (bsel) idx_d[31:16] = req_data_i[15:0];
          else      idx_d[15:0]  = req_data_i[15:0];
          vld_d[vbase + 3'd2] = 1'b1;
        end
        5'd7: begin
          close_o      = 1'b1;
          tail_we_o    = v[2] && in_ring;
          tail_range_o = v[2] && !in_ring;
          blk_valid_o  = (&v) && in_ring;
          torn_o       = !((&v) && in_ring);
          if (bsel) vld_d[5:3] = 3'b000;
          else      vld_d[2:0] = 3'b000;
        end
        default: ;  // words 3..6 and 8..31: accepted, ignored
      endcase
    end
    // Blocks belong to the WC protocol only.
    if (proto_i != nictx_reg_pkg::ProtoWc) vld_d = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w0_q   <= '0;
      w1_q   <= '0;
      idx_q  <= '0;
      vld_q  <= '0;
      beat_q <= '0;
    end else begin
      w0_q   <= w0_d;
      w1_q   <= w1_d;
      idx_q  <= idx_d;
      vld_q  <= vld_d;
      beat_q <= beat_d;
    end
  end

`ifndef SYNTHESIS
  // A well-formed TLP ends on its last beat: ceil(len / 8) beats.
  BeatCount_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                   (req_valid_i && ok) |-> (req_eop_i == ({2'd0, beat_q} + 13'd1 == req_len_i >> 3)))
    else $error("nictx_wc: WC MWr of %0d bytes ended at beat %0d", req_len_i, beat_q);
  SopFirst_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
                   req_valid_i |-> (req_sop_i == (beat_q == '0)));
`endif

  // verilator lint_off UNUSEDSIGNAL
  logic unused;
  assign unused = woff[6];  // always 1: the window is the upper half of BAR0
  // verilator lint_on UNUSEDSIGNAL

  assign busy_o = beat_q != '0;

endmodule
