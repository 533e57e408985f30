// nictx_desc_fetch: descriptor fetch for one transmit ring.
//
// When the tail doorbell moves past the fetch pointer, it asks the DMA read
// engine for up to DescFetchMax (register) descriptors in one read, cut
// at the ring wrap, once that many slots are free in its descriptor buffer
// (a batch, not a trickle of single descriptors); the read engine splits
// it at MRRS.  Up to MaxReads reads may be outstanding.
// Reads complete in order (nictx_dma_rd), so descriptors leave in ring
// order on the desc_* stream: {buffer address, 14-bit length, bad}.
// A descriptor whose length field is 0 or above 16383 leaves with bad = 1.
//
// Handshakes: req_* and desc_* are valid/ready; req_valid_o is a register
// and desc_* read a slot that stays unchanged until it is taken.
module nictx_desc_fetch #(
  parameter int unsigned BufDescs = 64,  // descriptor buffer slots
  parameter int unsigned MaxReads = 4    // outstanding descriptor reads
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        enable_i,
  input  logic [63:0] ring_base_i,
  input  logic [4:0]  ring_log2_i,
  input  logic [15:0] tail_i,
  input  logic [5:0]  fetch_max_i,
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
  // Descriptors out
  output logic        desc_valid_o,
  input  logic        desc_ready_i,
  output logic [63:0] desc_addr_o,
  output logic [13:0] desc_len_o,
  output logic        desc_bad_o,
  output logic        idle_o
);

  localparam int unsigned SlotW = $clog2(BufDescs);
  localparam int unsigned NW    = $clog2(MaxReads);

  if (BufDescs < 32 || (BufDescs & (BufDescs - 1)) != 0) begin : gen_buf_check
    $error("nictx_desc_fetch: BufDescs must be a power of two >= 32 (one full fetch)");
  end

  logic [63:0] mem [2*BufDescs];  // word 2k: address, 2k+1: length/flags

  logic [15:0]    fetch_d, fetch_q;     // next ring index to fetch
  logic [SlotW:0] alloc_d, alloc_q;     // slots handed to reads
  logic [SlotW:0] ready_d, ready_q;     // slots whose read retired
  logic [SlotW:0] rd_d, rd_q;           // slots consumed
  logic           req_valid_d, req_valid_q;
  logic [63:0]    req_addr_d, req_addr_q;
  logic [13:0]    req_len_d, req_len_q;
  logic [15:0]    req_wptr_d, req_wptr_q;

  // Sizes (in descriptors) of reads in flight, in issue order.
  logic        nf_wvalid, nf_wready, nf_rvalid;
  logic [SlotW:0] nf_wdata, nf_rdata;
  logic [NW:0] nf_depth;

  prim_fifo_sync #(
    .Width (SlotW + 1),
    .Depth (MaxReads)
  ) u_size_fifo (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wvalid_i (nf_wvalid),
    .wready_o (nf_wready),
    .wdata_i  (nf_wdata),
    .rvalid_o (nf_rvalid),
    .rready_i (done_i),
    .rdata_o  (nf_rdata),
    .depth_o  (nf_depth)
  );

  logic [15:0]    mask, avail, to_wrap, n;
  logic [SlotW:0] free_slots;
  logic           load;

  always_comb begin
    mask       = 16'((17'd1 << ring_log2_i) - 17'd1);
    avail      = (tail_i - fetch_q) & mask;
    to_wrap    = mask - fetch_q + 16'd1;
    free_slots = BufDescs[SlotW:0] - (alloc_q - rd_q);
    n = avail;
    if ({10'd0, fetch_max_i} < n) n = {10'd0, fetch_max_i};
    if (to_wrap < n) n = to_wrap;
    // Fetch a whole batch or nothing: wait until it fits in the buffer
    // rather than trickle one descriptor per freed slot.
    load = enable_i && n != 16'd0 && {{(15 - SlotW){1'b0}}, free_slots} >= n &&
           nf_wready && (!req_valid_q || req_ready_i);

    fetch_d     = fetch_q;
    alloc_d     = alloc_q;
    ready_d     = ready_q;
    rd_d        = rd_q;
    req_valid_d = req_valid_q;
    req_addr_d  = req_addr_q;
    req_len_d   = req_len_q;
    req_wptr_d  = req_wptr_q;
    nf_wvalid   = 1'b0;
    nf_wdata    = n[SlotW:0];

    if (req_valid_q && req_ready_i) req_valid_d = 1'b0;
    if (load) begin
      req_valid_d = 1'b1;
      req_addr_d  = ring_base_i + {44'd0, fetch_q, 4'b0000};
      req_len_d   = {n[9:0], 4'b0000};
      req_wptr_d  = {{(15 - SlotW){1'b0}}, alloc_q[SlotW-1:0], 1'b0};
      nf_wvalid   = 1'b1;
      fetch_d     = (fetch_q + n) & mask;
      alloc_d     = alloc_q + n[SlotW:0];
    end
    if (done_i) ready_d = ready_q + nf_rdata;
    if (desc_valid_o && desc_ready_i) rd_d = rd_q + 1'b1;
  end

  // Descriptor words are written like a RAM.
  always_ff @(posedge clk_i) begin
    if (wr_valid_i) mem[wr_ptr_i[SlotW:0]] <= wr_data_i;
  end

  logic [63:0] w_addr, w_len;
  assign w_addr       = mem[{rd_q[SlotW-1:0], 1'b0}];
  assign w_len        = mem[{rd_q[SlotW-1:0], 1'b1}];
  assign desc_valid_o = ready_q != rd_q;
  assign desc_addr_o  = w_addr;
  assign desc_len_o   = w_len[13:0];
  assign desc_bad_o   = w_len[15:0] == 16'd0 || w_len[15:14] != 2'b00;

  assign req_valid_o = req_valid_q;
  assign req_addr_o  = req_addr_q;
  assign req_len_o   = req_len_q;
  assign req_wptr_o  = req_wptr_q;
  // Idle: nothing in flight or buffered, and nothing to fetch.
  assign idle_o = !req_valid_q && alloc_q == rd_q && (!enable_i || avail == 16'd0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fetch_q     <= '0;
      alloc_q     <= '0;
      ready_q     <= '0;
      rd_q        <= '0;
      req_valid_q <= 1'b0;
      req_addr_q  <= '0;
      req_len_q   <= '0;
      req_wptr_q  <= '0;
    end else begin
      fetch_q     <= fetch_d;
      alloc_q     <= alloc_d;
      ready_q     <= ready_d;
      rd_q        <= rd_d;
      req_valid_q <= req_valid_d;
      req_addr_q  <= req_addr_d;
      req_len_q   <= req_len_d;
      req_wptr_q  <= req_wptr_d;
    end
  end

  // verilator lint_off UNUSEDSIGNAL
  logic unused;
  assign unused = ^{nf_depth, nf_rvalid, wr_ptr_i[15:SlotW+1], w_len[63:16], n[15:10]};
  // verilator lint_on UNUSEDSIGNAL

endmodule
