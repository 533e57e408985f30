// SPDX-License-Identifier: Apache-2.0
// nictx_payload_fetch: payload DMA and in-order, store-and-forward
// reassembly, the frame realigned to byte 0.
//
// Ports: desc_* takes descriptors; req_*, wr_* and done_* are its reads on
// the DMA read engine (wr_ptr_i a buffer byte pointer, whole words); fr_*
// streams each whole frame from byte 0, DataBytes a beat, or one skip beat
// for a bad descriptor or a failed read.  desc_* and fr_* are valid/ready,
// fr_* stable until taken.
// Theory of operation: docs/device.md, "Payload fetch: nictx_payload_fetch".
module nictx_payload_fetch #(
  parameter int unsigned DataBytes = 8,      // bytes per beat and per buffer word
  parameter int unsigned BufBytes  = 16384,  // reassembly buffer; >= one 16383 B frame
  parameter int unsigned MaxPkts   = 64,     // frames reserved in the buffer at once
  parameter int unsigned QW        = 6,      // queue id bits: carried, not used
  localparam int unsigned DataW    = DataBytes * 8,
  localparam int unsigned LaneW    = $clog2(DataBytes),   // lane of a byte in a word
  localparam int unsigned BytesW   = LaneW + 1,           // 0..DataBytes
  localparam int unsigned BPtrW    = $clog2(BufBytes)     // buffer byte pointer
) (
  input  logic        clk_i,
  // verilator lint_off SYNCASYNCNET
  input  logic        rst_ni,  // also in the simulation-only assertions' enable
  // verilator lint_on SYNCASYNCNET
  // Descriptors in
  input  logic        desc_valid_i,
  output logic        desc_ready_o,
  input  nictx_pkg::desc_t desc_i,  // (err: bad because its descriptor read failed)
  input  logic [QW-1:0] desc_q_i,  // the descriptor's queue
  // Read request to nictx_dma_rd
  output logic        req_valid_o,
  input  logic        req_ready_i,
  output nictx_pkg::rd_req_t req_o,
  output logic [BPtrW-1:0] req_wptr_o,  // buffer byte pointer of req_o.addr's byte
  // Read data and retirement from nictx_dma_rd
  input  logic        wr_valid_i,
  input  logic [BPtrW-1:0] wr_ptr_i,  // byte pointer of the word's lane 0
  input  logic [DataW-1:0] wr_data_i,
  input  logic        done_i,
  input  logic        done_err_i,
  // Frame stream out
  output logic        fr_valid_o,
  input  logic        fr_ready_i,
  output logic        fr_sop_o,
  output logic        fr_eop_o,
  output logic [DataW-1:0]  fr_data_o,
  output logic [BytesW-1:0] fr_bytes_o,
  output logic [nictx_pkg::LenW-1:0] fr_len_o,
  output logic        fr_skip_o,
  output logic [QW-1:0] fr_q_o,    // the frame's queue (its descriptor's)
  output logic        bad_desc_o,
  output logic        idle_o
);

  localparam int unsigned Words = BufBytes / DataBytes;
  localparam int unsigned PtrW  = $clog2(Words);
  localparam int unsigned PktW  = $clog2(MaxPkts);
  localparam int unsigned ShW   = LaneW + 4;  // bit shifts 0..DataW

  if (BufBytes < 16384 || BufBytes > 262144 || (BufBytes & (BufBytes - 1)) != 0)
  begin : gen_buf_check
    $error("nictx_payload_fetch: BufBytes must be a power of two in 16 KiB..256 KiB");
  end
  if (DataBytes < 8 || DataBytes > 64 || (DataBytes & (DataBytes - 1)) != 0)
  begin : gen_width_check
    $error("nictx_payload_fetch: DataBytes must be 8, 16, 32 or 64");
  end

  logic [DataW-1:0] mem [Words];

  // Registers with an enable (written only on the event that changes
  // them), so a quiet clock copies none of them.
  logic [PtrW:0]  alloc_q;            // next free word
  logic [PtrW:0]  base_q;             // first word of the frame being streamed
  logic [PtrW-1:0] beat_q;            // beat index within that frame
  logic           req_valid_q;
  nictx_pkg::rd_req_t req_q;
  logic [BPtrW-1:0] req_wptr_q;
  logic           load, beat_go;      // a good descriptor taken; a beat taken

  // Packet FIFO: {queue, skip, lane offset, length}.
  localparam int unsigned PfW = QW + 1 + LaneW + 14;
  logic           pf_wvalid, pf_wready, pf_rvalid, pf_rready;
  logic [PfW-1:0] pf_wdata, pf_rdata;
  logic [PktW:0]  pf_depth;
  logic           pf_skip;
  logic [LaneW-1:0] pf_off;
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

  logic [QW-1:0]  pf_q;
  assign {pf_q, pf_skip, pf_off, pf_len} = pf_rdata;
  assign fr_q_o = pf_q;

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
  logic [PtrW:0] in_words;
  logic          take;
  logic [14:0]   rem;
  logic          head_ready, head_skip;

  always_comb begin
    // Take a descriptor: bad ones need only a FIFO slot, good ones also a
    // free request register and buffer room (worked out only for an offered
    // descriptor).
    take     = 1'b0;
    in_words = '0;
    pf_wdata = '0;
    if (desc_valid_i && pf_wready) begin
      // its bytes plus the lane offset of its first byte
      in_words = (PtrW + 1)'((15'(desc_i.addr[LaneW-1:0]) + {1'b0, desc_i.len} +
                              15'(DataBytes - 1)) >> LaneW);
      take     = desc_i.bad || ((Words[PtrW:0] - (alloc_q - base_q)) >= in_words &&
                                (!req_valid_q || req_ready_i));
      // The FIFO stores it only on a push (take).
      pf_wdata = {desc_q_i, desc_i.bad, desc_i.addr[LaneW-1:0], desc_i.len};
    end
    desc_ready_o = take;
    pf_wvalid    = take;

    load       = take && !desc_i.bad;
    bad_desc_o = take && desc_i.bad && !desc_i.err;

    // Stream the head frame.
    head_ready = pf_rvalid && (pf_skip || ef_rvalid);
    fr_valid_o = head_ready;
    fr_len_o   = pf_len;
    // The beat's flags only with a beat offered (every user also needs
    // fr_valid_o).
    head_skip  = 1'b0;
    rem        = '0;
    fr_sop_o   = 1'b0;
    fr_eop_o   = 1'b0;
    fr_bytes_o = '0;
    if (head_ready) begin
      head_skip  = pf_skip || ef_err;  // ef_err only matters for a non-skip frame
      rem        = {1'b0, pf_len} - 15'({beat_q, {LaneW{1'b0}}});
      fr_sop_o   = beat_q == '0;
      fr_eop_o   = head_skip || rem <= 15'(DataBytes);
      fr_bytes_o = head_skip ? '0 : (rem >= 15'(DataBytes) ? BytesW'(DataBytes) : rem[BytesW-1:0]);
    end
    fr_skip_o  = head_skip;
    begin
      logic [PtrW-1:0]  w0;
      logic [ShW-1:0]   sh;
      // Data only with a beat offered (the MAC reads it only then): bytes
      // off..W-1 of this word, then 0..off-1 of the next (two word-wide
      // shifts rather than one of two words: same logic, faster to
      // simulate).  The next word only while it is the frame's: past a
      // frame's end it may be the next frame's, written while this beat
      // waits.
      w0        = '0;
      sh        = '0;
      fr_data_o = '0;
      if (head_ready) begin
        w0 = base_q[PtrW-1:0] + beat_q;
        sh = {1'b0, pf_off, 3'b000};
        if (pf_off == '0) begin
          fr_data_o = mem[w0];
        end else if (15'(pf_off) + rem > 15'(DataBytes)) begin
          fr_data_o = (mem[w0] >> sh) | (mem[w0 + 1'b1] << (ShW'(DataW) - sh));
        end else begin
          fr_data_o = mem[w0] >> sh;
        end
      end
    end

  end

  // Advance through the head frame as beats are taken.
  assign beat_go   = fr_valid_o && fr_ready_i;
  assign pf_rready = beat_go && fr_eop_o;
  assign ef_rready = pf_rready && !pf_skip;

  always_ff @(posedge clk_i) begin
    if (wr_valid_i) mem[wr_ptr_i[BPtrW-1:LaneW]] <= wr_data_i;
  end

  assign req_valid_o = req_valid_q;
  assign req_o       = req_q;
  assign req_wptr_o  = req_wptr_q;
  assign idle_o      = !req_valid_q && !pf_rvalid;

  // The request register: loaded with a good descriptor, emptied when the
  // read engine takes it (a load in the same clock refills it; a ready
  // with the register empty leaves it empty).  (No register is read after
  // its own update in this block: the simulation then keeps no shadow
  // copy of it.)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      alloc_q     <= '0;
      req_valid_q <= 1'b0;
      req_q       <= '0;
      req_wptr_q  <= '0;
    end else begin
      if (load) begin
        req_wptr_q  <= {alloc_q[PtrW-1:0], desc_i.addr[LaneW-1:0]};
        alloc_q     <= alloc_q + in_words;
        req_q.addr  <= desc_i.addr;
        req_q.len   <= desc_i.len;
      end
      if (load || req_ready_i) req_valid_q <= load;
    end
  end

  // The head frame's position: a beat taken moves it on; its last beat
  // moves to the next frame (past its words unless it was skipped).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      base_q <= '0;
      beat_q <= '0;
    end else if (beat_go) begin
      if (fr_eop_o) begin
        beat_q <= '0;
        // past the frame's words: its bytes plus its first byte's lane
        if (!pf_skip) begin
          base_q <= base_q +
                    (PtrW + 1)'((15'(pf_off) + {1'b0, pf_len} + 15'(DataBytes - 1)) >> LaneW);
        end
      end else begin
        beat_q <= beat_q + 1'b1;
      end
    end
  end

`ifndef SYNTHESIS
  // Immediate assertions at the rising edge (cheaper in Verilator than
  // concurrent ones: nictx_dma_rd.sv says why).
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // At most MaxPkts frames are reserved, so a retirement always fits.
      ErrFifoNeverFull_A: assert (!done_i || ef_wready);
      // Read data comes as whole buffer words (nictx_dma_rd's pointer of lane 0).
      WordAligned_A: assert (!wr_valid_i || wr_ptr_i[LaneW-1:0] == '0);
      // Every beat but a frame's last is full.
      FullBeats_A: assert (!(fr_valid_o && !fr_eop_o) || fr_bytes_o == BytesW'(DataBytes));
    end
  end
`endif

  // verilator lint_off UNUSEDSIGNAL
  logic unused;
  assign unused = ^{pf_depth, wr_ptr_i[LaneW-1:0]};
  // verilator lint_on UNUSEDSIGNAL

endmodule
