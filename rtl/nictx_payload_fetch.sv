// nictx_payload_fetch: payload DMA and in-order reassembly.
//
// For each descriptor it reserves room for the frame in a circular word
// buffer (BufBytes), asks the DMA read engine for the frame bytes (split
// at MRRS there), and records the frame in a packet FIFO.  Completion words
// land at their reserved place in whatever order tags complete; reads
// retire in order, so a frame is ready when its read retires.  Frames are
// store-and-forward: the frame stream starts only once the whole frame is
// in the buffer.
//
// The frame stream realigns: buffer words follow host address lanes, the
// stream starts at frame byte 0.  Beat k carries frame bytes 8k..8k+7,
// fr_bytes_o of them valid (8 except on the last beat); fr_len_o is the
// frame length on every beat.  A bad descriptor becomes one beat with
// fr_skip_o = 1 and no data, so it still completes in ring order; so does a
// frame whose read retired with an error status (done_err_i), once it
// reaches the head (its buffer room is then freed).  bad_desc_o flags bad
// descriptors except those marked desc_err_i (a descriptor read error).
//
// Handshakes: desc_* in and fr_* out are valid/ready; fr_* only read
// buffer words that stay unchanged until the frame is taken.
module nictx_payload_fetch #(
  parameter int unsigned BufBytes = 16384,  // reassembly buffer; >= one 16383 B frame
  parameter int unsigned MaxPkts  = 64      // frames reserved in the buffer at once
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // Descriptors in
  input  logic        desc_valid_i,
  output logic        desc_ready_o,
  input  logic [63:0] desc_addr_i,
  input  logic [13:0] desc_len_i,
  input  logic        desc_bad_i,
  input  logic        desc_err_i,  // bad because its descriptor read failed
  // Read request to nictx_dma_rd
  output logic        req_valid_o,
  input  logic        req_ready_i,
  output logic [63:0] req_addr_o,
  output logic [13:0] req_len_o,
  output logic [15:0] req_wptr_o,
  // Read data and retirement from nictx_dma_rd
  input  logic        wr_valid_i,
  input  logic [15:0] wr_ptr_i,
  input  logic [63:0] wr_data_i,
  input  logic        done_i,
  input  logic        done_err_i,
  // Frame stream out
  output logic        fr_valid_o,
  input  logic        fr_ready_i,
  output logic        fr_sop_o,
  output logic        fr_eop_o,
  output logic [63:0] fr_data_o,
  output logic [3:0]  fr_bytes_o,
  output logic [13:0] fr_len_o,
  output logic        fr_skip_o,
  output logic        bad_desc_o,
  output logic        idle_o
);

  localparam int unsigned Words = BufBytes / 8;
  localparam int unsigned PtrW  = $clog2(Words);
  localparam int unsigned PktW  = $clog2(MaxPkts);

  if (Words < 2048 || (Words & (Words - 1)) != 0 || PtrW > 15) begin : gen_buf_check
    $error("nictx_payload_fetch: BufBytes must be a power of two in 16 KiB..256 KiB");
  end

  logic [63:0] mem [Words];

  logic [PtrW:0]  alloc_d, alloc_q;   // next free word
  logic [PtrW:0]  base_d, base_q;     // first word of the frame being streamed
  logic [PtrW-1:0] beat_d, beat_q;    // beat index within that frame
  logic           req_valid_d, req_valid_q;
  logic [63:0]    req_addr_d, req_addr_q;
  logic [13:0]    req_len_d, req_len_q;
  logic [15:0]    req_wptr_d, req_wptr_q;

  // Packet FIFO: {skip, lane offset, length}.
  localparam int unsigned PfW = 1 + 3 + 14;
  logic           pf_wvalid, pf_wready, pf_rvalid, pf_rready;
  logic [PfW-1:0] pf_wdata, pf_rdata;
  logic [PktW:0]  pf_depth;
  logic           pf_skip;
  logic [2:0]     pf_off;
  logic [13:0]    pf_len;

  prim_fifo_sync #(
    .Width (PfW),
    .Depth (MaxPkts)
  ) u_pkt_fifo (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wvalid_i (pf_wvalid),
    .wready_o (pf_wready),
    .wdata_i  (pf_wdata),
    .rvalid_o (pf_rvalid),
    .rready_i (pf_rready),
    .rdata_o  (pf_rdata),
    .depth_o  (pf_depth)
  );

  assign {pf_skip, pf_off, pf_len} = pf_rdata;

  // Retired, not yet streamed frames (non-skip), in order: did the read fail?
  logic           ef_rvalid, ef_rready, ef_err;
  // verilator lint_off UNUSEDSIGNAL
  logic           ef_wready;  // never full: at most MaxPkts frames are reserved
  logic [PktW:0]  ef_depth;
  // verilator lint_on UNUSEDSIGNAL

  prim_fifo_sync #(
    .Width (1),
    .Depth (MaxPkts)
  ) u_err_fifo (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wvalid_i (done_i),
    .wready_o (ef_wready),
    .wdata_i  (done_err_i),
    .rvalid_o (ef_rvalid),
    .rready_i (ef_rready),
    .rdata_o  (ef_err),
    .depth_o  (ef_depth)
  );

  // Words a frame occupies: its bytes plus the lane offset of its first byte.
  logic [14:0]   in_span, head_span;
  logic [PtrW:0] in_words, head_words, used;
  logic          room, take;
  logic [14:0]   rem;
  logic          head_ready, head_skip;

  always_comb begin
    in_span    = {12'd0, desc_addr_i[2:0]} + {1'b0, desc_len_i} + 15'd7;
    in_words   = (PtrW + 1)'(in_span >> 3);
    head_span  = {12'd0, pf_off} + {1'b0, pf_len} + 15'd7;
    head_words = (PtrW + 1)'(head_span >> 3);
    used       = alloc_q - base_q;
    room       = (Words[PtrW:0] - used) >= in_words;
    // Take a descriptor: bad ones need only a FIFO slot, good ones also a
    // free request register and buffer room.
    take = desc_valid_i && pf_wready &&
           (desc_bad_i || (room && (!req_valid_q || req_ready_i)));
    desc_ready_o = take;
    pf_wvalid    = take;
    pf_wdata     = {desc_bad_i, desc_addr_i[2:0], desc_len_i};

    alloc_d     = alloc_q;
    req_valid_d = req_valid_q;
    req_addr_d  = req_addr_q;
    req_len_d   = req_len_q;
    req_wptr_d  = req_wptr_q;
    if (req_valid_q && req_ready_i) req_valid_d = 1'b0;
    if (take && !desc_bad_i) begin
      req_valid_d = 1'b1;
      req_addr_d  = desc_addr_i;
      req_len_d   = desc_len_i;
      req_wptr_d  = 16'(alloc_q[PtrW-1:0]);
      alloc_d     = alloc_q + in_words;
    end
    bad_desc_o = take && desc_bad_i && !desc_err_i;

    // Stream the head frame.
    head_ready = pf_rvalid && (pf_skip || ef_rvalid);
    head_skip  = pf_skip || ef_err;  // ef_err only matters for a non-skip frame
    rem        = {1'b0, pf_len} - 15'({beat_q, 3'b000});
    fr_valid_o = head_ready;
    fr_sop_o   = beat_q == '0;
    fr_eop_o   = head_skip || rem <= 15'd8;
    fr_bytes_o = head_skip ? 4'd0 : (rem >= 15'd8 ? 4'd8 : rem[3:0]);
    fr_len_o   = pf_len;
    fr_skip_o  = head_skip;
    begin
      logic [PtrW-1:0] w0;
      logic [63:0]     w_lo, w_hi;
      logic [6:0]      sh;
      w0        = base_q[PtrW-1:0] + beat_q;
      // Bytes off..7 of this word, then 0..off-1 of the next (two 64-bit
      // shifts rather than one 128-bit one: same logic, faster to simulate).
      w_lo      = mem[w0];
      w_hi      = mem[w0 + 1'b1];
      sh        = {1'b0, pf_off, 3'b000};
      fr_data_o = (pf_off == 3'd0) ? w_lo : ((w_lo >> sh) | (w_hi << (7'd64 - sh)));
    end

  end

  // Advance through the head frame as beats are taken.
  always_comb begin
    base_d    = base_q;
    beat_d    = beat_q;
    pf_rready = 1'b0;
    ef_rready = 1'b0;
    if (fr_valid_o && fr_ready_i) begin
      beat_d = beat_q + 1'b1;
      if (fr_eop_o) begin
        beat_d    = '0;
        pf_rready = 1'b1;
        if (!pf_skip) begin
          base_d    = base_q + head_words;
          ef_rready = 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (wr_valid_i) mem[wr_ptr_i[PtrW-1:0]] <= wr_data_i;
  end

  assign req_valid_o = req_valid_q;
  assign req_addr_o  = req_addr_q;
  assign req_len_o   = req_len_q;
  assign req_wptr_o  = req_wptr_q;
  assign idle_o      = !req_valid_q && !pf_rvalid;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      alloc_q     <= '0;
      base_q      <= '0;
      beat_q      <= '0;
      req_valid_q <= 1'b0;
      req_addr_q  <= '0;
      req_len_q   <= '0;
      req_wptr_q  <= '0;
    end else begin
      alloc_q     <= alloc_d;
      base_q      <= base_d;
      beat_q      <= beat_d;
      req_valid_q <= req_valid_d;
      req_addr_q  <= req_addr_d;
      req_len_q   <= req_len_d;
      req_wptr_q  <= req_wptr_d;
    end
  end

  // verilator lint_off UNUSEDSIGNAL
  logic unused;
  assign unused = ^{pf_depth, wr_ptr_i[15:PtrW], in_span[2:0], head_span[2:0]};
  // verilator lint_on UNUSEDSIGNAL

endmodule
