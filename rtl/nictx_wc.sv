// SPDX-License-Identifier: Apache-2.0
// nictx_wc: the write-combining descriptor window (BlueFlame) in BAR0
// 0x200..0x3FF: two 256-byte buffers, a 64-byte block each.
//
// Ports: req_* takes every beat of an MWr to the window (never refused; the
// top holds a TLP's first beat while a queue reset is about to fire);
// close_o, tail_we_o/tail_o and the blk_* block are single-cycle pulses,
// combinational from the beat that closes a block; bad_access_o and
// torn_o flag refused writes and incomplete blocks.
// Theory of operation: docs/device.md, "Write-combining window: nictx_wc".
module nictx_wc #(
  parameter int unsigned DataBytes = 8,  // bytes per beat
  localparam int unsigned DataW    = DataBytes * 8,
  localparam int unsigned LaneW    = $clog2(DataBytes),
  localparam int unsigned NumWords = DataBytes / 8  // 8-byte words per beat
) (
  input  logic        clk_i,
  // verilator lint_off SYNCASYNCNET
  input  logic        rst_ni,  // also in the simulation-only assertions' enable
  // verilator lint_on SYNCASYNCNET
  input  nictx_pkg::proto_e proto_i,
  input  logic [nictx_pkg::Log2W-1:0] ring_log2_i,
  // MWr beats to BAR0 offsets 0x200..0x3FF: the header (sop, eop, len and
  // the BAR0 offset's low 10 bits, addr[9:0]) and the data lanes
  input  logic        req_valid_i,
  input  nictx_pkg::tlp_hdr_t req_i,
  input  logic [DataW-1:0] req_data_i,
  output logic        bad_access_o,
  // Block close
  output logic        close_o,
  output logic        tail_we_o,
  output logic [nictx_pkg::IdxW-1:0] tail_o,
  output logic        tail_range_o,
  output logic        torn_o,
  output logic        blk_valid_o,
  output nictx_pkg::wc_blk_t blk_o,
  output logic        busy_o      // inside a TLP: a queue reset must wait
);

  // One beat closes at most one block: the two blocks' last words are 256
  // bytes apart.
  if (DataBytes < 8 || DataBytes > 64 || (DataBytes & (DataBytes - 1)) != 0)
  begin : gen_width_check
    $error("nictx_wc: DataBytes must be 8, 16, 32 or 64");
  end

  // Per buffer b: words at [64*b +: 64], index at [16*b +: 16], written
  // bits {word 2, word 1, word 0} at [3*b +: 3].
  logic [127:0] w0_q, w1_q;
  logic [31:0]  idx_q;
  logic [5:0]   vld_q;
  // Beat within the TLP.  An accepted TLP has <= 32 beats, but every TLP
  // the port can carry is counted (a 13-bit length at any lane: up to
  // 1025 beats), so a long one that is refused still ends where it ends.
  localparam int unsigned BeatW = 11;
  logic [BeatW-1:0] beat_q;

  logic [9:0]  req_off; // the TLP's BAR0 offset in the window's 1 KiB
  logic [6:0]  wbase;   // 8-byte word offset in BAR0 of this beat's lane 0
  logic [6:0]  wfirst, wend;  // the TLP's words: wfirst..wend-1
  logic        bsel;    // buffer of the block closed in this beat
  logic [13:0] tlp_end;
  logic        ok, wr;
  logic [2:0]  v;
  logic [15:0] idx, mask;
  logic        in_ring;
  // Words 0..2 written by this beat (a beat lies in one buffer: at most 8
  // aligned words), and their values
  logic [2:0]  bw;
  logic [63:0] bw0, bw1;
  logic [15:0] bidx;

  // Evaluation cost: the window is quiet in most runs, so the beat is
  // decoded only when one comes (req_valid_i), and the buffers change only
  // on an accepted beat (wr, an enabled always_ff with block-local next
  // values); with no beat the outputs are buffer 0's stored block.
  assign req_off = req_i.addr[9:0];

  // The beat's decode: its words in the window, and whether it is taken.
  always_comb begin
    wbase   = '0;
    tlp_end = '0;
    wfirst  = '0;
    wend    = '0;
    ok      = 1'b0;
    wr      = 1'b0;
    bad_access_o = 1'b0;
    if (req_valid_i) begin
      // Only used while ok (the TLP lies inside the window).
      wbase   = 7'((10'(req_off[9:LaneW]) + 10'(beat_q)) << (LaneW - 3));
      tlp_end = {4'd0, req_off} + {1'b0, req_i.len};
      wfirst  = req_off[9:3];
      wend    = tlp_end[9:3];  // 0 when the TLP ends at the window's end
      ok      = proto_i == nictx_pkg::ProtoWc && req_off[9] && req_off[2:0] == 3'd0 &&
                req_i.len[2:0] == 3'd0 && req_i.len >= 13'd8 && req_i.len <= 13'd256 &&
                tlp_end <= 14'h400;
      wr      = ok;
      bad_access_o = req_i.sop && !ok;
    end
  end

  // The beat's words, and the block a word 7 closes.
  always_comb begin
    mask    = 16'((17'd1 << ring_log2_i) - 17'd1);

    close_o = 1'b0;
    bsel    = 1'b0;
    v       = 3'b000;
    bw      = 3'b000;
    bw0     = '0;
    bw1     = '0;
    bidx    = '0;

    // The beat's words in address order; a word 7 closes its buffer's
    // block with what words 0..2 hold by then.
    for (int unsigned j = 0; j < NumWords; j++) begin
      logic [6:0]  woff;
      logic [63:0] d;
      woff = wbase + 7'(j);
      d    = req_data_i[64 * j +: 64];
      // (nested: no beat written, no word test)
      if (wr) if (woff >= wfirst && (woff < wend || wend == 7'd0)) begin
        unique case (woff[4:0])
          5'd0: begin
            bw[0] = 1'b1;
            bw0   = d;
          end
          5'd1: begin
            bw[1] = 1'b1;
            bw1   = d;
          end
          5'd2: begin
            bw[2] = 1'b1;
            bidx  = d[15:0];
          end
          5'd7: begin
            close_o = 1'b1;
            bsel    = woff[5];
            v       = (woff[5] ? vld_q[5:3] : vld_q[2:0]) | bw;
          end
          default: ;  // words 3..6 and 8..31: accepted, ignored
        endcase
      end
    end

    // The closed block (buffer 0's with no close), as words 0..2 stand
    // after this beat's writes (which count when they are in that buffer).
    if (wbase[5] != bsel) bw = 3'b000;
    idx          = bw[2] ? bidx : bsel ? idx_q[31:16] : idx_q[15:0];
    tail_o       = (idx + 16'd1) & mask;
    in_ring      = 1'b0;  // (read only for a block closed)
    tail_we_o    = 1'b0;
    tail_range_o = 1'b0;
    blk_valid_o  = 1'b0;
    torn_o       = 1'b0;
    if (close_o) begin
      in_ring      = (idx & ~mask) == 16'd0;
      tail_we_o    = v[2] && in_ring;
      tail_range_o = v[2] && !in_ring;
      blk_valid_o  = (&v) && in_ring;
      torn_o       = !((&v) && in_ring);
    end
    blk_o.idx    = idx;
    blk_o.w0     = bw[0] ? bw0 : bsel ? w0_q[127:64] : w0_q[63:0];
    blk_o.w1     = bw[1] ? bw1 : bsel ? w1_q[127:64] : w1_q[63:0];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w0_q   <= '0;
      w1_q   <= '0;
      idx_q  <= '0;
      vld_q  <= '0;
      beat_q <= '0;
    end else begin
      if (req_valid_i) beat_q <= req_i.eop ? '0 : beat_q + 1'b1;
      if (wr) begin : b_wr
        logic [127:0] w0_n, w1_n;
        logic [31:0]  idx_n;
        logic [5:0]   vld_n;
        w0_n  = w0_q;
        w1_n  = w1_q;
        idx_n = idx_q;
        vld_n = vld_q;
        for (int unsigned j = 0; j < NumWords; j++) begin
          logic [6:0]  woff;
          logic        b;
          logic [63:0] d;
          logic [2:0]  vb;
          woff = wbase + 7'(j);
          b    = woff[5];
          d    = req_data_i[64 * j +: 64];
          vb   = b ? 3'd3 : 3'd0;
          if (woff >= wfirst && (woff < wend || wend == 7'd0)) begin
            unique case (woff[4:0])
              5'd0: begin
                if (b) w0_n[127:64] = d;
                else   w0_n[63:0]   = d;
                vld_n[vb + 3'd0] = 1'b1;
              end
              5'd1: begin
                if (b) w1_n[127:64] = d;
                else   w1_n[63:0]   = d;
                vld_n[vb + 3'd1] = 1'b1;
              end
              5'd2: begin
                if (b) idx_n[31:16] = d[15:0];
                else   idx_n[15:0]  = d[15:0];
                vld_n[vb + 3'd2] = 1'b1;
              end
              5'd7: begin
                if (b) vld_n[5:3] = 3'b000;
                else   vld_n[2:0] = 3'b000;
              end
              default: ;  // words 3..6 and 8..31: accepted, ignored
            endcase
          end
        end
        w0_q  <= w0_n;
        w1_q  <= w1_n;
        idx_q <= idx_n;
        vld_q <= vld_n;
      end else if (proto_i != nictx_pkg::ProtoWc) begin
        vld_q <= '0;  // blocks belong to the WC protocol only
      end
    end
  end

`ifndef SYNTHESIS
  // Immediate assertions at the rising edge (cheaper in Verilator than
  // concurrent ones: nictx_dma_rd.sv says why).
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // A well-formed TLP ends on its last beat: ceil(((off mod W) + len) / W).
      BeatCount_A: assert (!(req_valid_i && ok) || (req_i.eop == ({2'd0, beat_q} + 13'd1 ==
                         (13'(req_off[LaneW-1:0]) + req_i.len + 13'(DataBytes - 1)) >> LaneW)))
        else $error("nictx_wc: WC MWr of %0d bytes ended at beat %0d", req_i.len, beat_q);
      SopFirst_A: assert (!req_valid_i || (req_i.sop == (beat_q == '0)));
    end
  end
`endif

  // verilator lint_off UNUSEDSIGNAL
  logic unused;
  assign unused = ^{wbase[6], tlp_end[13:10],  // inside the window (ok)
                    req_i.kind, req_i.tag, req_i.addr[nictx_pkg::AddrW-1:10],  // an MWr there
                    req_i.err};
  // verilator lint_on UNUSEDSIGNAL

  assign busy_o = beat_q != '0;

`ifndef SYNTHESIS
`ifdef NICTX_COVER
  // Functional cover points, named as in sim/lib/cover.h (docs/coverage.md):
  // compiled only by make coverage (+define+NICTX_COVER, --coverage-user);
  // the C model counts the same terms (c-model/cm_engine.c, cover_sample).
  // A BlueFlame block closed in the second buffer; one closed torn.
  wc_flip: cover property (@(posedge clk_i) disable iff (!rst_ni) close_o && bsel);
  wc_torn: cover property (@(posedge clk_i) disable iff (!rst_ni) close_o && torn_o);
`endif
`endif

endmodule
