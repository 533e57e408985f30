// SPDX-License-Identifier: Apache-2.0
// nictx_dma_rd: DMA read engine, the requester side of host memory reads:
// MRd split at MRRS, one pool of tags, in-order retirement, error status,
// unexpected completions and the completion timeout.
//
// Ports: req_* takes whole reads {addr, len, byte pointer} from two
// requesters (0 payload, 1 descriptors); mrd_* offers MRd TLPs (a register:
// valid never waits for ready); cpl_* takes completion beats, always
// (cpl_ready_o = 1); wr_* writes their data as whole words at the
// requester's byte pointer; done_* retires each read in issue order, with
// done_err_o when a completion of it carried an error.
// Theory of operation: docs/device.md, "DMA read engine: nictx_dma_rd".
module nictx_dma_rd #(
  parameter int unsigned NumTags   = 256,  // 8-bit tags (Extended Tag Field)
  parameter int unsigned DataBytes = 8,    // bytes per completion beat
  parameter int unsigned PtrW      = 16,   // requesters' buffer byte pointers
  localparam int unsigned DataW    = DataBytes * 8,
  localparam int unsigned LaneW    = $clog2(DataBytes),
  localparam int unsigned NumWords = DataBytes / 8  // 8-byte words per beat
) (
  input  logic        clk_i,
  // verilator lint_off SYNCASYNCNET
  input  logic        rst_ni,  // also used by the simulation-only assertions' disable iff
  // verilator lint_on SYNCASYNCNET
  input  logic [nictx_reg_pkg::MrrsLog2ValueWidth-1:0]   mrrs_log2_i,
  input  logic [nictx_reg_pkg::MaxTagsValueWidth-1:0]    max_tags_i,      // 1..NumTags
  input  logic [nictx_reg_pkg::MaxRdBytesValueWidth-1:0] max_rd_bytes_i,  // 0: unlimited
  output logic        stall_o,
  // Read requests, index 0 payload, 1 descriptors
  input  logic [1:0]  req_valid_i,
  output logic [1:0]  req_ready_o,
  input  nictx_pkg::rd_req_t pay_req_i,
  input  logic [PtrW-1:0]    pay_wptr_i,
  input  nictx_pkg::rd_req_t desc_req_i,
  input  logic [PtrW-1:0]    desc_wptr_i,
  // MRd TLPs out (one beat each)
  output logic        mrd_valid_o,
  input  logic        mrd_ready_i,
  output logic [nictx_pkg::AddrW-1:0]   mrd_addr_o,
  output logic [nictx_pkg::TlpLenW-1:0] mrd_len_o,
  output logic [nictx_pkg::TagW-1:0]    mrd_tag_o,
  output logic        mrd_dest_o,
  // CplD beats in: the header (its address's lanes: the lane of the
  // completion's first byte) and the data lanes
  input  logic        cpl_valid_i,
  output logic        cpl_ready_o,
  input  nictx_pkg::tlp_hdr_t cpl_hdr_i,
  input  logic [DataW-1:0]    cpl_data_i,
  output logic        unexp_o,        // a beat for no outstanding tag, discarded
  input  logic [nictx_reg_pkg::CplTimeoutValueWidth-1:0] cpl_timeout_i,  // cycles; 0: off
  output logic        timeout_o,
  input  logic [nictx_pkg::ClkW-1:0] skip_i,         // clocks left out before this one
  output logic        wait_o,
  output logic [nictx_pkg::ClkW-1:0] wake_o,
  // Word writes to the requesters' buffers
  output logic        wr_valid_o,
  output logic        wr_dest_o,
  output logic [PtrW-1:0]     wr_ptr_o,
  output logic [NumWords-1:0] wr_words_o,
  output logic [DataW-1:0]    wr_data_o,
  // A whole read retired
  output logic        done_valid_o,
  output logic        done_dest_o,
  output logic        done_err_o,
  output logic        drained_o,  // every MRd sent has all its completions
  output logic        idle_o
);

  if (NumTags < 2 || NumTags > 256 || (NumTags & (NumTags - 1)) != 0) begin : gen_tag_check
    $error("nictx_dma_rd: NumTags must be a power of two in 2..256");
  end
  if (DataBytes < 8 || DataBytes > 64 || (DataBytes & (DataBytes - 1)) != 0)
  begin : gen_width_check
    $error("nictx_dma_rd: DataBytes must be 8, 16, 32 or 64");
  end

  localparam int unsigned TagW = $clog2(NumTags);

  // Read being split into MRds.
  logic        cur_valid_q;
  logic        cur_dest_q;
  logic [63:0] cur_addr_q;
  logic [13:0] cur_rem_q;
  logic [PtrW-1:0] cur_wptr_q;
  // Registered MRd output.
  logic        mrd_valid_q;
  logic [63:0] mrd_addr_q;
  logic [12:0] mrd_len_q;
  logic [7:0]  mrd_tag_q;
  logic        mrd_dest_q;
  // Per-tag fields, written like small RAMs (one write from the issue
  // side to a free tag, one from the completion side to a busy tag, one
  // from the retire side to the oldest tag), none reset: a tag's entries
  // are written when it is issued, and a tag never issued since reset
  // (fresh_q..NumTags-1) is not busy whatever tbusy_mem holds.  (Kept as
  // NumTags-bit vectors with a reset, the state was copied whole on every
  // clock of the simulation.)
  logic        tbusy_mem [NumTags];  // an MRd is outstanding (with tag < fresh_q)
  logic        tdone_mem [NumTags];  // all its data is in
  // {byte pointer of the next beat's lane 0, bytes still to come}: one
  // word, written together (one write port each side instead of two)
  logic [PtrW+12:0] tpr_mem [NumTags];
  logic [PtrW+12:0] tpr;             // ctag's
  logic [PtrW-1:0]  twptr;
  logic [12:0]      trem;
  logic        tdest_mem [NumTags];  // requester
  logic        terr_mem [NumTags];   // a completion had an error status
  logic        rerr_d, rerr_q;       // an earlier MRd of the retiring read had one

  // Outstanding MRds and requested bytes (for the limits).
  logic [8:0]  out_q;
  logic [20:0] obytes_q;
  logic [8:0]  fresh_q;  // tags never used yet: fresh_q..NumTags-1

  // Retire order FIFO: {tag, last, dest, bytes}.
  localparam int unsigned RetW = TagW + 2 + 13;
  logic            ret_wvalid, ret_wready, ret_rvalid, ret_rready;
  logic [RetW-1:0] ret_wdata, ret_rdata;
  // verilator lint_off UNUSEDSIGNAL
  logic [TagW:0]   ret_depth;  // equals out_q; not needed
  // verilator lint_on UNUSEDSIGNAL
  logic [TagW-1:0] ret_tag;
  logic            ret_last, ret_dest;
  logic [12:0]     ret_bytes;

  prim_fifo_sync #(
    .Width (RetW),
    .Depth (NumTags)
  ) u_retire_fifo (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wvalid_i (ret_wvalid),
    .wready_o (ret_wready),
    .wdata_i  (ret_wdata),
    .rvalid_o (ret_rvalid),
    .rready_i (ret_rready),
    .rdata_o  (ret_rdata),
    .depth_o  (ret_depth)
  );

  assign {ret_tag, ret_last, ret_dest, ret_bytes} = ret_rdata;

  // Free list of tags that have been used and retired.
  logic            fl_rvalid, fl_pop;
  logic [TagW-1:0] fl_rdata;
  // verilator lint_off UNUSEDSIGNAL
  logic            fl_wready;  // never full: it holds at most NumTags tags
  logic [TagW:0]   fl_depth;
  // verilator lint_on UNUSEDSIGNAL

  prim_fifo_sync #(
    .Width (TagW),
    .Depth (NumTags)
  ) u_free_tags (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wvalid_i (ret_rready),
    .wready_o (fl_wready),
    .wdata_i  (ret_tag),
    .rvalid_o (fl_rvalid),
    .rready_i (fl_pop),
    .rdata_o  (fl_rdata),
    .depth_o  (fl_depth)
  );

  logic [TagW-1:0] ctag;  // completion tag as a table index
  logic [LaneW-1:0] cpl_lane;  // the lane of the completion's first byte
  logic            cpl_take;  // a beat for an outstanding tag
  logic            cpl_done;  // ... its MRd's last
  logic            ret_done;  // the oldest MRd has all its data
  assign ctag     = cpl_hdr_i.tag[TagW-1:0];
  assign cpl_lane = cpl_hdr_i.addr[LaneW-1:0];
  // (nested: the tag checks only for a beat offered)
  always_comb begin
    cpl_take = 1'b0;
    cpl_done = 1'b0;
    if (cpl_valid_i) begin
      if (32'(cpl_hdr_i.tag) < NumTags && {1'b0, cpl_hdr_i.tag} < fresh_q) begin
        cpl_take = tbusy_mem[ctag];
      end
      if (cpl_take && cpl_hdr_i.eop) cpl_done = trem == cpl_hdr_i.len;
    end
  end
  assign tpr      = tpr_mem[ctag];
  assign {twptr, trem} = tpr;
  assign ret_done = ret_rvalid && tdone_mem[ret_tag];
  assign unexp_o  = cpl_valid_i && !cpl_take;

  // Cycles the oldest MRd has waited for its data; saturates at the timeout.
  logic [23:0] wait_q;
  logic        to_fired_q;

  // Split arithmetic, tag choice and limits.
  logic [12:0]     mrrs, chunk, room;
  logic [13:0]     chunk14;
  logic            tag_avail, use_fresh, in_budget, load, last_chunk;
  logic [TagW-1:0] tag_sel;
  logic [PtrW+12:0] tpr_ld;  // the loaded tag's {write pointer, bytes}

  // (Only while a read is being split: otherwise nothing issues.)
  always_comb begin
    mrrs       = '0;
    room       = '0;
    chunk14    = '0;
    chunk      = '0;
    last_chunk = 1'b0;
    use_fresh  = 1'b0;
    tag_avail  = 1'b0;
    tag_sel    = '0;
    tpr_ld     = '0;
    in_budget  = 1'b0;
    load       = 1'b0;
    stall_o    = 1'b0;
    fl_pop     = 1'b0;
    if (cur_valid_q) begin
      mrrs    = 13'd1 << mrrs_log2_i;
      room    = mrrs - (cur_addr_q[12:0] & (mrrs - 13'd1));
      chunk14 = ({1'b0, room} < cur_rem_q) ? {1'b0, room} : cur_rem_q;
      chunk   = chunk14[12:0];
      last_chunk = chunk14 == cur_rem_q;

      use_fresh = fresh_q < NumTags[8:0];
      tag_avail = use_fresh || fl_rvalid;
      tag_sel   = use_fresh ? fresh_q[TagW-1:0] : fl_rdata;
      in_budget = out_q < max_tags_i &&
                  (max_rd_bytes_i == '0 || obytes_q + {8'd0, chunk} <= max_rd_bytes_i);
      load      = tag_avail && in_budget && ret_wready && (!mrd_valid_q || mrd_ready_i);
      stall_o   = !(tag_avail && in_budget);
      fl_pop    = load && !use_fresh;
      // (here, not in the table's always_ff: a register read there, after
      // this block's edge, would cost the model a copy of it every clock)
      tpr_ld    = {cur_wptr_q - PtrW'(cur_addr_q[LaneW-1:0]), chunk};
    end
  end

  // Outputs and FIFO handshakes of this clock; the registers' next values
  // are written in the clocked block below under the same conditions.
  logic accept;  // a new read is taken
  always_comb begin
    req_ready_o  = 2'b00;
    accept       = 1'b0;
    ret_wvalid   = 1'b0;
    ret_wdata    = '0;
    ret_rready   = 1'b0;
    done_valid_o = 1'b0;
    done_dest_o  = 1'b0;
    done_err_o   = 1'b0;
    rerr_d       = 1'b0;  // (taken only on a retire: ret_done)

    // Issue one MRd chunk.
    if (load) begin
      ret_wvalid = 1'b1;
      ret_wdata  = {tag_sel, last_chunk, cur_dest_q, chunk};
    end

    // Accept a new read when idle, or in the cycle the current one's last
    // MRd is issued (one read a cycle); descriptors first (they gate
    // payload).
    if (!cur_valid_q || (load && last_chunk)) begin
      req_ready_o[1] = 1'b1;
      req_ready_o[0] = !req_valid_i[1];
      accept         = req_valid_i[1] || req_valid_i[0];
    end

    // Retire the oldest MRd once all its data is in.
    if (ret_done) begin
      ret_rready   = 1'b1;
      done_valid_o = ret_last;
      done_dest_o  = ret_dest;
      done_err_o   = ret_last && (rerr_q || terr_mem[ret_tag]);
      rerr_d       = !ret_last && (rerr_q || terr_mem[ret_tag]);
    end
  end

  // Completion timeout of the oldest MRd.
  logic counting, restart;
  always_comb begin
    timeout_o  = 1'b0;
    counting   = 1'b0;  // (read only without restart: worked out only then)
    restart    = !ret_rvalid || ret_rready;  // a new oldest MRd (or none) starts its wait
    wake_o     = '1;
    if (!restart) begin  // (so ret_rvalid)
      if (cpl_timeout_i != '0 && !to_fired_q) begin
        counting = 1'b1;
        if (wait_q >= cpl_timeout_i) begin
          timeout_o  = 1'b1;
        end else begin
          wake_o = (cpl_timeout_i - wait_q > 24'd1) ? cpl_timeout_i - wait_q - 24'd2 : '0;
        end
      end
    end
    wait_o = !cur_valid_q && !mrd_valid_q && !ret_rready && !timeout_o;
  end

  assign cpl_ready_o = 1'b1;
  assign wr_valid_o  = cpl_take;
  // Issue: a free tag's entries.  Completion beats: write the word, advance
  // the tag's pointer; the last finishes the tag.  Retire: the oldest tag
  // is free again.  (Three different tags: a free tag is not busy, and a
  // tag retires only once its last completion has been taken.)
  always_ff @(posedge clk_i) begin
    if (load) begin
      tpr_mem[tag_sel]   <= tpr_ld;
      tdest_mem[tag_sel] <= cur_dest_q;
      terr_mem[tag_sel]  <= 1'b0;
      tbusy_mem[tag_sel] <= 1'b1;
      tdone_mem[tag_sel] <= 1'b0;
    end
    if (cpl_take && cpl_hdr_i.err) terr_mem[ctag] <= 1'b1;
    if (cpl_take) begin
      tpr_mem[ctag] <= {twptr + PtrW'(DataBytes), cpl_hdr_i.eop ? trem - cpl_hdr_i.len : trem};
    end
    if (cpl_done) tdone_mem[ctag] <= 1'b1;
    if (ret_rready) begin
      tbusy_mem[ret_tag] <= 1'b0;
      tdone_mem[ret_tag] <= 1'b0;
    end
  end

  assign wr_dest_o   = tdest_mem[ctag];
  assign wr_ptr_o    = twptr;
  assign wr_data_o   = cpl_data_i;

  // The words of this beat that carry completion bytes: from the first
  // byte's word on the first beat, up to the last byte's word on the last.
  logic [LaneW-1:0] cpl_last_lane;
  assign cpl_last_lane = cpl_lane + LaneW'(cpl_hdr_i.len - 13'd1);
  always_comb begin
    for (int unsigned j = 0; j < NumWords; j++) begin
      wr_words_o[j] = !(cpl_hdr_i.sop && LaneW'(8 * j + 7) < cpl_lane) &&
                      !(cpl_hdr_i.eop && LaneW'(8 * j) > cpl_last_lane);
    end
  end

  assign mrd_valid_o = mrd_valid_q;
  assign mrd_addr_o  = mrd_addr_q;
  assign mrd_len_o   = mrd_len_q;
  assign mrd_tag_o   = mrd_tag_q;
  assign mrd_dest_o  = mrd_dest_q;
  assign idle_o      = !cur_valid_q && !mrd_valid_q && out_q == '0;
  // Outstanding MRds are out_q; the one in the output register has not
  // left yet (it is the youngest, so all older ones can retire).
  assign drained_o   = out_q == {8'd0, mrd_valid_q};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cur_valid_q <= 1'b0;
      cur_dest_q  <= 1'b0;
      cur_addr_q  <= '0;
      cur_rem_q   <= '0;
      cur_wptr_q  <= '0;
      mrd_valid_q <= 1'b0;
      mrd_addr_q  <= '0;
      mrd_len_q   <= '0;
      mrd_tag_q   <= '0;
      mrd_dest_q  <= 1'b0;
      wait_q      <= '0;
      to_fired_q  <= 1'b0;
      out_q       <= '0;
      obytes_q    <= '0;
      fresh_q     <= '0;
      rerr_q      <= 1'b0;
    end else begin
      // The read being split, the MRd output and the counts: written
      // only on the clocks that change them.
      if (mrd_valid_q && mrd_ready_i) mrd_valid_q <= 1'b0;
      if (load) begin
        mrd_valid_q <= 1'b1;
        mrd_addr_q  <= cur_addr_q;
        mrd_len_q   <= chunk;
        mrd_tag_q   <= 8'(tag_sel);
        mrd_dest_q  <= cur_dest_q;
        if (use_fresh) fresh_q <= fresh_q + 9'd1;
        cur_addr_q  <= cur_addr_q + {51'd0, chunk};
        cur_rem_q   <= cur_rem_q - chunk14;
        cur_wptr_q  <= cur_wptr_q + PtrW'(chunk);
        if (last_chunk) cur_valid_q <= 1'b0;
      end
      if (accept) begin
        cur_valid_q <= 1'b1;
        cur_dest_q  <= req_valid_i[1];
        cur_addr_q  <= req_valid_i[1] ? desc_req_i.addr : pay_req_i.addr;
        cur_rem_q   <= req_valid_i[1] ? desc_req_i.len  : pay_req_i.len;
        cur_wptr_q  <= req_valid_i[1] ? desc_wptr_i     : pay_wptr_i;
      end
      if (load || ret_done) begin
        out_q    <= out_q + {8'd0, load} - {8'd0, ret_done};
        obytes_q <= obytes_q + (load ? {8'd0, chunk} : 21'd0) - (ret_done ? {8'd0, ret_bytes} : 21'd0);
      end
      if (ret_done) rerr_q <= rerr_d;
      // The wait: it starts over with a new oldest MRd, fires once, and
      // alone takes skip_i (clocks left out count as waited), at the edge.
      if (restart) begin
        wait_q     <= '0;
        to_fired_q <= 1'b0;
      end else if (timeout_o) begin
        to_fired_q <= 1'b1;
      end else if (counting) begin
        wait_q     <= wait_q + 24'd1 + skip_i;
      end
    end
  end

`ifndef SYNTHESIS
  // Checks at the rising edge on the values before it, as immediate
  // assertions in a clocked block: the same as concurrent assertions sampled
  // there, but Verilator 5.006 copies every signal a concurrent assertion
  // reads at each eval() (twice a clock), which cost more than some of the
  // engine's own logic (docs/architecture.md, Simulation speed).  The hold
  // rule keeps the previous cycle in checker-only flops.
  logic        mrd_hold_q;  // an MRd was offered and not taken
  logic [71:0] mrd_past_q;  // ... its {addr, tag}
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) mrd_hold_q <= 1'b0;
    else         mrd_hold_q <= mrd_valid_o && !mrd_ready_i;
  end
  always @(posedge clk_i) mrd_past_q <= {mrd_addr_o, mrd_tag_o};

  always @(posedge clk_i) begin
    if (rst_ni) begin
      // A completion beat with data writes at least one word (requesters
      // rely on the words it marks).
      CplWords_A: assert (!(cpl_take && cpl_hdr_i.len != '0) || wr_words_o != '0);
      // The busy set and the retire FIFO agree: every outstanding MRd is busy.
      OldestBusy_A: assert (!ret_rvalid || (9'(ret_tag) < fresh_q && tbusy_mem[ret_tag]))
        else $error("nictx_dma_rd: the oldest MRd's tag %0d is not busy", ret_tag);
      // The MRd output holds while stalled (valid/ready rule).
      MrdHold_A: assert (!mrd_hold_q || (mrd_valid_o && {mrd_addr_o, mrd_tag_o} == mrd_past_q));
      // The tag free list holds at most NumTags tags: a retired tag always
      // fits, and a tag is taken from it only when it has one.
      FreeListNeverFull_A: assert (!ret_rready || fl_wready);
      FreeListPopNonEmpty_A: assert (!fl_pop || fl_rvalid);
    end
  end
`endif

  // verilator lint_off UNUSEDSIGNAL
  logic unused;
  assign unused = ^{cpl_hdr_i.kind, cpl_hdr_i.addr[nictx_pkg::AddrW-1:LaneW]};  // a CplD's lanes
  // verilator lint_on UNUSEDSIGNAL

`ifndef SYNTHESIS
`ifdef NICTX_COVER
  // Functional cover points, named as in sim/lib/cover.h (docs/coverage.md):
  // compiled only by make coverage (+define+NICTX_COVER, --coverage-user);
  // the C model counts the same terms (c-model/cm_engine.c, cover_sample).
  // An MRd held for want of a tag (or with MAX_TAGS out), or of byte budget.
  tags_exhausted: cover property (@(posedge clk_i) disable iff (!rst_ni)
      cur_valid_q && !(tag_avail && out_q < max_tags_i));
  bytes_full: cover property (@(posedge clk_i) disable iff (!rst_ni)
      cur_valid_q && tag_avail && out_q < max_tags_i && !in_budget);
`endif
`endif

endmodule
