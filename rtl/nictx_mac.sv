// SPDX-License-Identifier: Apache-2.0
// nictx_mac: transmit MAC: line-rate pacing, FCS, wire stream.
//
// Ports: fr_* takes the payload fetch's frame beats; wire_* sends them
// unchanged, the FCS on wire_fcs_o with the last beat (wire_valid_o never
// waits for wire_ready_i; fr_ready_o is wire_ready_i while a beat goes
// out); pkt_done_o completes each frame or skip beat.  line_rate_i is wire
// bytes per cycle (8.16 fixed point).  wait_o, wake_o, skip_i: the credit's
// growth over clocks the simulator leaves out.
// Theory of operation: docs/device.md, "Transmit MAC: nictx_mac".
module nictx_mac #(
  parameter int unsigned DataBytes = 8,  // bytes per beat
  parameter int unsigned QW        = 6,  // queue id bits: carried to pkt_q_o
  localparam int unsigned DataW    = DataBytes * 8,
  localparam int unsigned BytesW   = $clog2(DataBytes) + 1  // 0..DataBytes
) (
  input  logic        clk_i,
  // verilator lint_off SYNCASYNCNET
  input  logic        rst_ni,  // also in the simulation-only assertion's enable
  // verilator lint_on SYNCASYNCNET
  // bytes per cycle, 8.16 fixed point
  input  logic [nictx_reg_pkg::LineRateValueWidth-1:0] line_rate_i,
  // Frame stream in
  input  logic        fr_valid_i,
  output logic        fr_ready_o,
  input  logic        fr_sop_i,
  input  logic        fr_eop_i,
  input  logic [DataW-1:0]  fr_data_i,
  input  logic [BytesW-1:0] fr_bytes_i,
  input  logic [nictx_pkg::LenW-1:0] fr_len_i,
  input  logic        fr_skip_i,
  input  logic [QW-1:0] fr_q_i,   // the frame's queue
  // Wire
  output logic        wire_valid_o,
  input  logic        wire_ready_i,
  output logic        wire_sop_o,
  output logic        wire_eop_o,
  output logic [DataW-1:0]  wire_data_o,
  output logic [BytesW-1:0] wire_bytes_o,
  output logic [nictx_pkg::FcsW-1:0] wire_fcs_o,
  // One frame done (left the wire, or skipped)
  output logic        pkt_done_o,
  output logic [nictx_pkg::LenW-1:0] pkt_len_o,
  output logic [QW-1:0] pkt_q_o,  // the queue of the frame pkt_done_o completes
  input  logic [nictx_pkg::ClkW-1:0] skip_i,  // clocks left out before this one (see above)
  output logic        wait_o,   // nothing but the credit changes on this clock
  output logic [nictx_pkg::ClkW-1:0] wake_o,  // clocks that may be left out after this one
  output logic        idle_o
);

  // ---- FCS: CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) ----
  // One beat at a time, all its bits in parallel.  The register update is
  // linear over GF(2): folding the register into the first 32 data bits,
  //   crc' = (crc >> 8n) ^ (XOR over message bits b set: G[bits after b])
  // where n is the beat's byte count and G[k] is the register after a single
  // 1 bit followed by k zero bits, starting from 0 (G[0] = the polynomial).
  // Shifting the beat's n bytes up to the top of the word puts every bit at
  // a fixed distance from the end, and bytes past n fall off the top.  The
  // columns are taken four bits at a time: nibble position p (p nibbles
  // after it) contributes T[p][v], the XOR of G[4p + 3 - k] over the set
  // bits k of its value v: a 16-entry table of constants per position
  // (2 x DataBytes x 16, built at elaboration).  The same XOR network (a
  // 4-input function per register bit and nibble), and the simulation looks
  // up one constant per nibble instead of masking one column per bit: at
  // 64 bytes a beat the per-bit form was most of the model's work.
  localparam int unsigned CntW = BytesW;
  localparam int unsigned NibN = 2 * DataBytes;  // nibble positions in a beat
  localparam int unsigned TabN = 16 * NibN;

  // {T[NibN-1][15], ..., T[0][1], T[0][0]}, 32 bits each: T[p][v] at entry
  // 16 * p + v.
  function automatic logic [32*TabN-1:0] crc32_tab();
    logic [127:0] g;     // G[4p + 3 - k] for this p at [32k +: 32]
    logic [31:0]  c, e;
    c = 32'hEDB8_8320;   // G[0]
    for (int unsigned p = 0; p < NibN; p++) begin
      for (int unsigned k = 0; k < 4; k++) begin
        g[32*(3 - k) +: 32] = c;  // G[4p + k]
        c = c[0] ? ((c >> 1) ^ 32'hEDB8_8320) : (c >> 1);
      end
      for (int unsigned v = 0; v < 16; v++) begin
        e = 32'd0;
        for (int unsigned k = 0; k < 4; k++) begin
          if (v[k]) e = e ^ g[32*k +: 32];
        end
        crc32_tab[32*(16*p + v) +: 32] = e;
      end
    end
  endfunction

  localparam logic [32*TabN-1:0] CrcTab = crc32_tab();

  // The register after the first n bytes of `data` (least significant first).
  function automatic logic [31:0] crc32_beat(input logic [31:0]      crc_in,
                                             input logic [DataW-1:0] data,
                                             input logic [CntW-1:0]  n);
    logic [DataW-1:0] w;
    logic [31:0]      c;
    logic [32*16-1:0] lo_row, hi_row;  // the table's rows of byte j's two nibbles
    w = (data ^ DataW'(crc_in)) << (DataW - 8 * 32'(n));
    c = crc_in >> (8 * 32'(n));  // register bits no data byte reaches (n < 4)
    // Byte j of w: its low nibble at position 2 (DataBytes - 1 - j) + 1,
    // its high nibble one closer to the end.  Each nibble indexes its
    // position's 16-entry row, a constant slice of the table: a synthesizer
    // then selects among 16 words, not shifts the whole table.
    for (int unsigned j = 0; j < DataBytes; j++) begin
      lo_row = CrcTab[32*16*(2*(DataBytes-1-j) + 1) +: 32*16];
      hi_row = CrcTab[32*16*(2*(DataBytes-1-j)) +: 32*16];
      c = c ^ lo_row[32*32'(w[8*j +: 4]) +: 32] ^ hi_row[32*32'(w[8*j+4 +: 4]) +: 32];
    end
    crc32_beat = c;
  endfunction

  if (DataBytes < 8 || DataBytes > 64 || (DataBytes & (DataBytes - 1)) != 0)
  begin : gen_width_check
    $error("nictx_mac: DataBytes must be 8, 16, 32 or 64");
  end

  logic signed [31:0] credit_q;
  logic               in_frame_d, in_frame_q;
  logic [31:0]        crc_d, crc_q;
  logic               may_start, send;

  logic signed [31:0] credit_n;  // the next credit before the clocks left out and the caps

  always_comb begin
    may_start    = credit_q >= 0;
    wire_valid_o = fr_valid_i && !fr_skip_i && (in_frame_q || (fr_sop_i && may_start));
    send         = wire_valid_o && wire_ready_i;
    fr_ready_o   = (fr_valid_i && fr_skip_i) || send;
    wire_sop_o   = fr_sop_i;
    wire_eop_o   = fr_eop_i;
    wire_data_o  = fr_data_i;
    wire_bytes_o = fr_bytes_i;

    credit_n   = credit_q + $signed({8'd0, line_rate_i});
    in_frame_d = in_frame_q;
    if (send) begin
      if (fr_sop_i) begin
        credit_n = credit_n - $signed({1'd0, {1'b0, fr_len_i} + 15'd24, 16'd0});
      end
      in_frame_d = !fr_eop_i;
    end

    pkt_done_o = (send && fr_eop_i) || (fr_valid_i && fr_skip_i);
    pkt_len_o  = fr_len_i;
    pkt_q_o    = fr_q_i;

    wait_o = !send && !(fr_valid_i && fr_skip_i);
  end

  // The simulator's (above): the hardware runs every clock (skip_i 0) and
  // leaves wake_o open, so synthesis builds neither the multiplier nor the
  // divider.  A frame waiting for credit starts after the clocks whose
  // growth still leaves the credit below 0, plus one: owed / line_rate_i
  // rounded down, owed = -credit - 1.  The clocks left out after this one
  // stop one short of that, so the clock after them still finds the frame
  // waiting and the register, behind by the skip, decides as the true
  // credit would; the next clock's wake_o is this one's less 1 + skip_i.
`ifndef SYNTHESIS
  always_comb begin
    logic [31:0] owed, clocks;
    owed    = '0;
    clocks  = '0;
    wake_o  = '1;
    // (Nested: only a frame waiting to start looks at the credit.)
    if (fr_valid_i && !fr_skip_i && !in_frame_q) begin
      if (credit_q < 0 && line_rate_i != '0) begin
        owed   = 32'(-(credit_q + 32'sd1));
        clocks = owed / {8'd0, line_rate_i};
        wake_o = (clocks > 32'hFF_FFFE) ? 24'hFF_FFFD :
                 (clocks == 32'd0) ? 24'd0 : 24'(clocks - 32'd1);
      end
    end
  end
`else
  assign wake_o  = '1;
`endif

  // The FCS so far, this beat included; computed only when a beat leaves
  // (the wire slice takes wire_fcs_o only then), so the simulation does not
  // evaluate it on the cycles no beat moves.
  always_comb begin
    crc_d      = crc_q;
    wire_fcs_o = '0;
    if (send) begin
      crc_d      = crc32_beat(fr_sop_i ? 32'hFFFF_FFFF : crc_q, fr_data_i, fr_bytes_i);
      wire_fcs_o = ~crc_d;
    end
  end

  assign idle_o = !in_frame_q && credit_q == 0;

`ifndef SYNTHESIS
  // An immediate assertion at the rising edge (cheaper in Verilator than a
  // concurrent one: nictx_dma_rd.sv says why).
  always @(posedge clk_i) begin
    // A frame beat carries 1..DataBytes bytes (crc32_beat covers no more).
    if (rst_ni) begin
      BeatBytes_A: assert (!(fr_valid_i && !fr_skip_i) ||
                           (fr_bytes_i != '0 && fr_bytes_i <= BytesW'(DataBytes)));
    end
  end
`endif

  // The credit register takes the growth of the clocks left out before this
  // one (skip_i; no output depends on it; in simulation only, above), then
  // the caps.  Nothing waiting: the wire idles and saves no credit.  A frame
  // waiting on the datapath (line faster than DataBytes per cycle) saves at
  // most one cycle's worth, which keeps the fraction and never overflows.
  // Capping once after the growth is capping on every clock: the credit only
  // grows while a clock is left out.  (In the clocked block: skip_i is a
  // top-level input, and a combinational function of it would be evaluated
  // again on the simulator's clock-low evaluation.)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credit_q   <= '0;
      in_frame_q <= 1'b0;
      crc_q      <= 32'hFFFF_FFFF;
    end else begin : b_credit
      logic signed [48:0] grown;
      grown = 49'(credit_n);
`ifndef SYNTHESIS
      grown = grown + $signed({1'b0, 48'(line_rate_i) * 48'(skip_i)});
`endif
      if (!fr_valid_i && grown > 0) grown = '0;
      if (grown > $signed({25'd0, line_rate_i})) grown = $signed({25'd0, line_rate_i});
      credit_q   <= 32'(grown);
      in_frame_q <= in_frame_d;
      crc_q      <= crc_d;
    end
  end

endmodule
