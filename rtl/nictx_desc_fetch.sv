// SPDX-License-Identifier: Apache-2.0
// nictx_desc_fetch: descriptor fetch for the transmit rings: per-queue
// fetch pointers and buffer regions, the owner protocols' owner-bit check
// and flush, and the WC window's blocks.
//
// Ports: req_* asks the DMA read engine for descriptor reads and wr_*,
// done_* take their data and in-order retirement; desc_* hands on the
// descriptor of the queue the scheduler names (sq_i), in ring order per
// queue, {address, length, bad, err} and its queue; rdy_o is the mask of
// queues with a ready head.  req_* and desc_* are valid/ready, req_valid_o
// a register, desc_* stable until taken.  f_q_o asks the register block
// for a queue's ring, answered in the same cycle.
// Theory of operation: docs/device.md, "Descriptor fetch: nictx_desc_fetch".
module nictx_desc_fetch #(
  parameter int unsigned BufDescs  = 64,  // descriptor buffer slots
  parameter int unsigned FetchMax  = 64,  // most descriptors a read asks for (DESC_FETCH_MAX)
  parameter int unsigned MaxReads  = 4,   // outstanding descriptor reads
  parameter int unsigned DataBytes = 8,   // bytes per read data beat
  parameter int unsigned NumQueues = 64,  // queues (regions of at least one slot)
  localparam int unsigned QW       = (NumQueues > 1) ? $clog2(NumQueues) : 1,
  localparam int unsigned DataW    = DataBytes * 8,
  localparam int unsigned NumWords = DataBytes / 8,        // 8-byte words per beat
  localparam int unsigned BPtrW    = $clog2(BufDescs) + 4  // buffer byte pointer
) (
  input  logic        clk_i,
  // verilator lint_off SYNCASYNCNET
  input  logic        rst_ni,  // also in the simulation-only assertions' disable iff
  // verilator lint_on SYNCASYNCNET
  input  logic        enable_i,
  input  logic [nictx_reg_pkg::QueuesValueWidth-1:0] queues_i,  // QUEUES
  // log2 of QUEUES rounded up to a power of two
  input  logic [nictx_pkg::QLog2W-1:0] queues_log2_i,
  input  logic [QW-1:0] db_q_i,    // doorbell_i's queue
  input  logic [nictx_pkg::IdxW-1:0] db_tail_i,  // ... and its tail now
  output logic [QW-1:0] f_q_o,     // the queue fetched from: f_cfg_i are its registers
  output logic [NumQueues-1:0] rdy_o,  // the queue's next descriptor is in the buffer
  output logic [NumQueues-1:0] work_o, // the queue has descriptors not yet fetched (QUEUES > 1)
  input  logic [QW-1:0] sq_i,      // the queue whose head desc_o carries (nictx_tx_sched)
  input  logic        sched_valid_i,  // ... may leave
  output logic [QW-1:0] desc_q_o,
  input  nictx_pkg::proto_e proto_i,
  input  logic        stop_i,      // ErrDma: start no fetch
  input  logic        doorbell_i,  // arms (Owner, Wc)
  input  logic        wc_close_i,      // a WC block closed (also a doorbell_i)
  input  logic        wc_idx_valid_i,  // ... with a usable ring index:
  input  logic [nictx_pkg::IdxW-1:0] wc_idx_i,
  input  nictx_pkg::q_fetch_t f_cfg_i,  // f_q_o's ring base, ring size and tail
  // sq_i's ring (the head's: its cons wraps there)
  input  logic [nictx_pkg::Log2W-1:0] h_ring_log2_i,
  input  logic [nictx_reg_pkg::DescFetchMaxValueWidth-1:0] fetch_max_i,
  // reads (and inserted blocks) outstanding, 1..MaxReads
  input  logic [nictx_reg_pkg::DescInflightValueWidth-1:0] inflight_i,
  // Complete write-combining block (one-cycle pulse)
  input  logic        blk_valid_i,
  input  nictx_pkg::wc_blk_t blk_i,
  // Read request to nictx_dma_rd
  output logic        req_valid_o,
  input  logic        req_ready_i,
  output nictx_pkg::rd_req_t req_o,
  output logic [BPtrW-1:0] req_wptr_o,  // slot * 16
  // Read data and retirement from nictx_dma_rd
  input  logic        wr_valid_i,
  input  logic [BPtrW-1:0]    wr_ptr_i,    // byte pointer of the beat's lane 0
  input  logic [NumWords-1:0] wr_words_i,  // the 8-byte words that carry read data
  input  logic [DataW-1:0]    wr_data_i,
  input  logic        done_i,
  input  logic        done_err_i,
  // Descriptors out
  output logic        desc_valid_o,
  input  logic        desc_ready_i,
  output nictx_pkg::desc_t desc_o,
  // Events
  output logic        not_owned_o,
  output logic [nictx_pkg::IdxW-1:0] not_owned_cnt_o,
  output logic        flush_o,     // a flush discards the head's queue's buffered descriptors now
  output logic        wc_used_o,
  output logic        wc_drop_o,
  output logic        wait_o,
  output logic        idle_o
);

  localparam int unsigned SlotW = $clog2(BufDescs);
  localparam int unsigned NW    = $clog2(MaxReads);

  if (NumQueues < 1 || NumQueues > 64 || (NumQueues & (NumQueues - 1)) != 0 ||
      NumQueues > BufDescs) begin : gen_queues_check
    $error("nictx_desc_fetch: NumQueues must be a power of two in 1..64, at most BufDescs");
  end

  if (BufDescs < 32 || BufDescs > 256 || (BufDescs & (BufDescs - 1)) != 0 || BufDescs < FetchMax)
  begin : gen_buf_check
    $error("nictx_desc_fetch: BufDescs must be a power of two in 32..256, at least FetchMax (one full fetch)");
  end
  if (FetchMax < 1 || FetchMax >= (1 << nictx_reg_pkg::DescFetchMaxValueWidth))
  begin : gen_fetch_check
    $error("nictx_desc_fetch: FetchMax must fit DESC_FETCH_MAX's field");
  end
  if (DataBytes < 8 || DataBytes > 64 || (DataBytes & (DataBytes - 1)) != 0)
  begin : gen_width_check
    $error("nictx_desc_fetch: DataBytes must be 8, 16, 32 or 64");
  end

  logic [63:0] mem_a [BufDescs];  // descriptor word 0: buffer address
  logic [63:0] mem_l [BufDescs];  // descriptor word 1: length, flags, owner bit

  // Per queue: next ring index to fetch; slots (of its region, counted
  // modulo twice the buffer) handed to reads, whose read retired, consumed.
  // (The fetch pointer and the allocation count are written together: one
  // array of {fetch, alloc}, one write port.)
  logic [16+SlotW:0] fa_m [NumQueues];
  logic [SlotW:0] ready_m [NumQueues];
  logic [SlotW:0] rd_m    [NumQueues];
  // The entries in use this cycle: the fetch queue's (fq), the head's (sq_i),
  // the retiring read's (pq); *_d the value written back.
  logic [QW-1:0]  fq, pq;
  logic [15:0]    fetch_d, fetch_q;     // fa_m[fq]'s fetch pointer
  logic [SlotW:0] alloc_d, alloc_q;     // fa_m[fq]'s allocation count
  logic [SlotW:0] rdf_q;                // rd_m[fq]
  logic [SlotW:0] ready_d, ready_q;     // ready_m[pq]
  logic [SlotW:0] rd_d, rd_q;           // rd_m[sq_i] (the flush: queue 0's)
  logic [NumQueues-1:0] work_d, work_q; // queue's tail != its fetch pointer
  logic [NumQueues-1:0] rdy_d, rdy_q;   // queue's next descriptor is ready
  logic [QW-1:0]  fptr_d, fptr_q;       // round robin over queues with work
  logic [SlotW:0] tot_d, tot_q;         // slots handed to reads, not consumed, all queues
  logic           multi;                // QUEUES > 1
  logic [2:0]     rlog;                 // log2 of the regions
  logic [SlotW:0] rsize;                // slots per region
  logic [SlotW-1:0] rmask;              // slot offset within a region
  logic [QW-1:0]  fpick;
  logic           fany;
  logic           req_valid_d, req_valid_q;
  // Registers written only on the clocks that change them (enable-gated
  // flops, below): the read request's words (a read starts), cons and its
  // phase (a descriptor leaves), the Wc bound (a block closes with an
  // index), the held block's words (a block arrives).
  nictx_pkg::rd_req_t req_q;
  logic [BPtrW-1:0] req_wptr_q;
  // Per queue: {phase, cons}: the ring index of its next descriptor to
  // leave and the owner bit expected there; the head's (sq_i) and, for a
  // flush, the fetch queue's.
  logic [16:0]    cp_m [NumQueues];
  logic [15:0]    cons_h;
  logic           phase_h;
  logic [NumQueues-1:0] armed_d, armed_q;     // per queue: fetch without the tail (owner)
  logic           unb_d, unb_q;         // Wc: fetch without the published bound
  logic           lim_valid_d, lim_valid_q;  // Wc: lim_q is the last published index
  logic [15:0]    lim_q;
  logic [NumQueues-1:0] db_since_d, db_since_q;  // per queue
  logic           flush_d, flush_q;     // waiting for reads in flight before a discard
  logic [QW-1:0]  fl_q;                 // ... of this queue's region
  logic           fl_cnt_d, fl_cnt_q;   // the flush counts (not owned, not a DMA error)
  logic [BufDescs-1:0] derr_d, derr_q;  // slot filled by a read that failed
  logic           blk_valid_d, blk_valid_q;
  logic [15:0]    blk_idx_q;
  logic [63:0]    blk_w0_q, blk_w1_q;

  // Slots not yet ready, in allocation order: {block, size}: a read of
  // `size` descriptors, or one inserted block (ready once it is the oldest).
  logic           nf_wvalid, nf_wready, nf_rvalid, nf_pop;
  logic [QW+SlotW+1:0] nf_wdata, nf_rdata;
  logic [NW:0]    nf_depth;
  logic           nf_blk;
  logic [SlotW:0] nf_size;

  prim_fifo_sync #(
    .Width (QW + SlotW + 2),
    .Depth (MaxReads)
  ) u_size_fifo (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wvalid_i (nf_wvalid),
    .wready_o (nf_wready),
    .wdata_i  (nf_wdata),
    .rvalid_o (nf_rvalid),
    .rready_i (nf_pop),
    .rdata_o  (nf_rdata),
    .depth_o  (nf_depth)
  );
  assign {pq, nf_blk, nf_size} = nf_rdata;
  // Room for one more read: under the register's cap (and so the FIFO's);
  // nf_room is worked out only where a read or an insertion may start.
  logic nf_room;

  // Read retirements (their error flag) that arrived while an inserted
  // block was still ahead of them; without blocks a retirement is applied
  // in the cycle it arrives and this stays empty.
  logic           df_wvalid, df_rvalid, df_rready, df_err, pop_err;
  // verilator lint_off UNUSEDSIGNAL
  logic           df_wready;  // never full: one entry per read in flight
  logic [NW:0]    df_depth;
  // verilator lint_on UNUSEDSIGNAL

  prim_fifo_sync #(
    .Width (1),
    .Depth (MaxReads)
  ) u_done_fifo (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .wvalid_i (df_wvalid),
    .wready_o (df_wready),
    .wdata_i  (done_err_i),
    .rvalid_o (df_rvalid),
    .rready_i (df_rready),
    .rdata_o  (df_err),
    .depth_o  (df_depth)
  );

  always_comb begin
    nf_pop    = nf_rvalid && (nf_blk || df_rvalid || done_i);
    // (Worked out only when a slot group retires: pop_err is used only then.)
    pop_err   = 1'b0;
    df_rready = 1'b0;
    df_wvalid = done_i;
    if (nf_pop) begin
      pop_err   = !nf_blk && (df_rvalid ? df_err : done_err_i);
      df_rready = !nf_blk && df_rvalid;
      df_wvalid = done_i && !(!nf_blk && !df_rvalid);
    end
  end

  logic [63:0]    w_addr, w_len;
  logic [SlotW-1:0] hslot, aslot;
  logic           owner;                // Owner or Wc protocol
  logic [15:0]    mask, tail_avail, n, inbuf16;
  logic [15:0]    hmask;                // the head's ring (sq_i's)
  // Ring sizes and distances reach 65536 (RING_LOG2 = 16): 17 bits.
  logic [16:0]    avail, blk_lim;
  logic [SlotW:0] inbuf, free_slots;
  logic           no_reads;             // no descriptor read requested or in flight (flush only)
  logic           head_valid, head_derr, owned, head_bad, head_stop, go, load, ins, sub, take;
  logic [QW-1:0]  dq;                   // the doorbell's queue (0 with one queue: a WC close)
  logic           blk_stale, blk_at_f, blk_ahead, blk_drop;

  // Regions: P = QUEUES rounded up to a power of two.
  always_comb begin
    multi = queues_i != 7'd1;
    rlog  = queues_log2_i;
    rsize = (SlotW + 1)'(BufDescs) >> rlog;
    rmask = SlotW'(rsize - 1'b1);
  end

  prim_rr_pick #(
    .N (NumQueues > 1 ? NumQueues : 2)
  ) u_fetch_pick (
    .req_i   ((NumQueues > 1 ? NumQueues : 2)'(work_q)),
    .ptr_i   ((NumQueues > 1 ? QW : 1)'(fptr_q)),
    .idx_o   (fpick),
    .valid_o (fany)
  );

  // Slot of queue q's pointer p: the region's base, the offset in it.
  // verilator lint_off UNUSEDSIGNAL
  function automatic logic [SlotW-1:0] slot_of(logic [QW-1:0] q, logic [SlotW:0] p,
                                               logic [2:0] rl, logic [SlotW-1:0] rm);
    logic [SlotW+QW-1:0] base;  // only the bits below SlotW matter
    base    = (SlotW + QW)'(q) << (SlotW - 32'(rl));
    slot_of = SlotW'(base) | (p[SlotW-1:0] & rm);
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  // The entries of this cycle's queues (apart from the main logic: the
  // head's words go to the scheduler, whose answer comes back).
  // verilator lint_off UNUSEDSIGNAL
  logic [SlotW+QW-1:0] hbase;  // the head's region base (only the bits below SlotW matter)
  // verilator lint_on UNUSEDSIGNAL
  always_comb begin
    rd_q       = rd_m[sq_i];
    // (slot_of written out: a function call keeps its arguments in
    // members of the model, stored and loaded again on every clock.)
    // (rlog <= 7: with SlotW >= 7 a right shift of {sq_i, 0} is the same
    // shift, without a test for a shift past the width.)
    if (SlotW >= 7) hbase = {sq_i, SlotW'(0)} >> rlog;
    else            hbase = (SlotW + QW)'(sq_i) << (SlotW - 32'(rlog));
    hslot      = SlotW'(hbase) | (rd_q[SlotW-1:0] & rmask);
    w_addr     = mem_a[hslot];
    w_len      = mem_l[hslot];
    head_derr  = derr_q[hslot];
    // (Only the owner protocols keep a consumer index, in the head's ring:
    // Tail needs none.)
    owner      = proto_i != nictx_pkg::ProtoTail;
    {phase_h, cons_h} = '0;
    hmask      = '0;
    if (owner) begin
      {phase_h, cons_h} = cp_m[sq_i];
      hmask = 16'((17'd1 << h_ring_log2_i) - 17'd1);
    end
  end

  // (Apart from the head's words: the scheduler's valid comes back from them.)
  always_comb begin
    // Head of the buffer: owned?  (Owner, Wc)
    head_valid = sched_valid_i;  // rdy_q[sq_i]: ready_m[sq_i] != rd_m[sq_i]
    owned      = 1'b0;  // (worked out where it is used: owner protocols, a held block)
    head_bad   = 1'b0;
    desc_valid_o = head_valid;
    if (owner) begin
      owned        = w_len[63] == phase_h;
      head_bad     = head_valid && (head_derr || !owned);
      desc_valid_o = head_valid && !(flush_q || head_derr || !owned);
    end

    // The fetch queue: the round robin's pick; while a head is unusable or
    // a flush waits, no fetch starts, and the fetch queue is the one whose
    // region the flush discards (the head's, then fl_q).
    fq = '0;
    if (multi) begin
      if (flush_q)       fq = fl_q;
      else if (head_bad) fq = sq_i;
      else               fq = fpick;
    end
    {fetch_q, alloc_q} = fa_m[fq];
    rdf_q      = rd_m[fq];
    dq         = multi ? db_q_i : '0;
  end

  // The fetch queue's ring and buffer, and the held block against them.
  always_comb begin
    logic [15:0] blk_dk;     // the held block's index from cons
    blk_dk     = '0;
    mask       = 16'((17'd1 << f_cfg_i.ring_log2) - 17'd1);
    tail_avail = (f_cfg_i.tail - fetch_q) & mask;
    inbuf      = alloc_q - rdf_q;  // fetched, not yet consumed: ring indices [cons, fetch)
    inbuf16    = {{(15 - SlotW){1'b0}}, inbuf};

    // The held block relative to the consumer (computed only while one is
    // held: otherwise none of these is set).  A held block for the head's
    // index replaces a not-owned ring copy (sub; the write port is free: no
    // read completion this cycle).
    blk_stale = 1'b0;
    blk_at_f  = 1'b0;
    blk_ahead = 1'b0;
    blk_lim   = '0;
    sub       = 1'b0;
    if (blk_valid_q) begin
      blk_dk    = (blk_idx_q - cons_h) & mask;
      blk_stale = proto_i != nictx_pkg::ProtoWc ||
                  blk_w1_q[63] != (phase_h ^ (blk_idx_q < cons_h));
      blk_at_f  = !blk_stale && blk_dk == inbuf16;
      blk_ahead = !blk_stale && blk_dk > inbuf16;
      blk_lim   = {1'b0, blk_dk - inbuf16};
      sub       = !blk_stale && blk_idx_q == cons_h && head_valid && !head_derr &&
                  w_len[63] != phase_h && !wr_valid_i;
    end
  end

  // How many descriptors may be fetched now (the owner protocols' bounds
  // only in those protocols: a held block is never valid in Tail).
  always_comb begin
    logic [16:0] room, pub;  // owner protocols: ring room; Wc: published
    room       = '0;
    pub        = '0;
    if (!owner) begin
      avail = {1'b0, tail_avail};
    end else begin
      // (the ring's size, 1 << f_cfg_i.ring_log2, worked out only where a bound is)
      room  = ((17'd1 << f_cfg_i.ring_log2) > {{(16 - SlotW){1'b0}}, inbuf}) ?
              (17'd1 << f_cfg_i.ring_log2) - {{(16 - SlotW){1'b0}}, inbuf} : 17'd0;
      avail = armed_q[fq] ? room : 17'd0;
      // Wc: published descriptors from cons on, minus those already fetched.
      if (proto_i == nictx_pkg::ProtoWc && !unb_q) begin
        // (Wc has one queue: fq and sq_i are 0, cons_h is the fetch queue's.)
        pub = lim_valid_q ? {1'b0, (lim_q - cons_h) & mask} + 17'd1 :
                            {1'b0, (f_cfg_i.tail - cons_h) & mask};
        pub = (pub > {1'b0, inbuf16}) ? pub - {1'b0, inbuf16} : 17'd0;
        if (pub < avail) avail = pub;
      end
      if ((blk_at_f || blk_ahead) && blk_lim < avail) avail = blk_lim;
    end
  end

  // The read's size, or the held block's insertion; the head's flush.
  always_comb begin
    logic [16:0] to_wrap;    // the fetch pointer's distance to the ring's wrap
    logic [15:0] rleft;      // slots to the fetch region's wrap
    to_wrap    = '0;
    rleft      = '0;
    free_slots = '0;  // (worked out where a read or an insertion may start)
    // The read's size, worked out only on a clock where a read may start
    // (else 0: no load).
    n = '0;
    nf_room = 1'b0;
    load = 1'b0;
    if (avail != 17'd0) begin
      nf_room = nf_wready && 32'(nf_depth) < 32'(inflight_i);
      if (enable_i && !stop_i && !flush_q && nf_room && (!req_valid_q || req_ready_i)) begin
        free_slots = rsize - inbuf;
        n = avail[15:0];
        if (avail[16]) n = 16'hFFFF;
        if (16'(fetch_max_i) < n) n = 16'(fetch_max_i);
        to_wrap = (17'd1 << f_cfg_i.ring_log2) - {1'b0, fetch_q};  // 1..ring size
        if (to_wrap < {1'b0, n}) n = to_wrap[15:0];
        // Several regions: a read stays in its region (one region: the buffer
        // pointer wraps with the ring of slots).  A region is small (64
        // queues: 4 slots), and a queue that waited for a whole batch would
        // run dry in the scheduler's turn: fetch what fits.
        if (multi) begin
          rleft = 16'(rsize) - 16'({1'b0, alloc_q[SlotW-1:0] & rmask});
          if (rleft < n) n = rleft;
          if ({{(15 - SlotW){1'b0}}, free_slots} < n) n = {{(15 - SlotW){1'b0}}, free_slots};
        end
        // One queue: fetch a whole batch or nothing: wait until it fits in
        // the buffer rather than trickle one descriptor per freed slot.
        // (n != 0: a read may start: room for it, the request register
        // free; go's enable_i, !stop_i and !flush_q are in it.)
        load = n != 16'd0 && !head_bad && {{(15 - SlotW){1'b0}}, free_slots} >= n;
      end
    end

    // A held block at the fetch pointer is inserted (then n is 0: no load;
    // the write port is free: no read completion this cycle).
    ins  = 1'b0;
    go   = 1'b0;
    if (blk_at_f) begin
      go      = enable_i && !stop_i && !flush_q && !head_bad;
      nf_room = nf_wready && 32'(nf_depth) < 32'(inflight_i);
      free_slots = rsize - inbuf;
      ins     = go && free_slots != '0 && nf_room && !wr_valid_i;
    end
    head_stop = head_bad && !flush_q && !sub;
    // Whether the reads are all done matters only to a flush (else 0).
    no_reads  = 1'b0;
    if (flush_q || head_stop) no_reads = !req_valid_q && !nf_rvalid;
  end

  assign take = desc_valid_o && desc_ready_i;

  // The fetch queue's next slot: only for a read or an insertion.
  always_comb begin
    aslot = '0;
    if (load || ins) aslot = slot_of(fq, alloc_q, rlog, rmask);
  end

  // The fetcher's own state moves only on a clock with something to do: a
  // read starting, asked for or retiring, a descriptor leaving, a flush,
  // a doorbell, a held or arriving block, an armed owner protocol (act).
  // On other clocks every flop below keeps its value (the *_d are unused)
  // and the next-state logic is not evaluated.
  logic act;
  logic fl_go;   // a flush discards the fetch queue's region now
  logic rdy_we;  // the ready mask is written

  // One block (145 lines) for speed: split by concern (pointers, request
  // and flush; error flags; arming and limit; held block and ready mask),
  // the default run takes 0.19% more instructions and the 8-queue owner
  // run 0.58% more (callgrind, 20000 packets; docs/architecture.md,
  // Simulation speed).
  always_comb begin
    fetch_d     = fetch_q;  // (read by the multi-queue work mask on every clock)
    alloc_d     = '0;       // (these three only on the clocks that write them)
    ready_d     = '0;
    ready_q     = '0;       // (read only on the clocks that use it)
    rd_d        = '0;
    fl_go       = 1'b0;
    rdy_we      = 1'b0;
    rdy_d       = '0;
    nf_wvalid   = 1'b0;
    nf_wdata    = '0;
    not_owned_o     = 1'b0;
    not_owned_cnt_o = inbuf16;
    blk_drop    = 1'b0;
    act = load || nf_pop || take || flush_q || head_stop || doorbell_i || wc_close_i ||
          blk_valid_i || blk_valid_q || req_valid_q || armed_q != '0 || unb_q;
    req_valid_d = 1'b0;
    armed_d     = '0;
    unb_d       = 1'b0;
    lim_valid_d = 1'b0;
    db_since_d  = '0;
    flush_d     = 1'b0;
    fl_cnt_d    = 1'b0;
    derr_d      = '0;
    blk_valid_d = 1'b0;
    if (act) begin
      alloc_d     = alloc_q;
      ready_q     = ready_m[pq];
      ready_d     = ready_q;
      rd_d        = rd_q;
      req_valid_d = req_valid_q;
      armed_d     = armed_q;
      unb_d       = unb_q;
      lim_valid_d = lim_valid_q;
      db_since_d  = db_since_q;
      flush_d     = flush_q;
      fl_cnt_d    = fl_cnt_q;
      derr_d      = derr_q;
      blk_valid_d = blk_valid_q;

      if (req_valid_q && req_ready_i) req_valid_d = 1'b0;
      if (load) begin
        req_valid_d = 1'b1;
        nf_wdata    = {fq, 1'b0, n[SlotW:0]};
        nf_wvalid   = 1'b1;
        fetch_d     = (fetch_q + n) & mask;
        alloc_d     = alloc_q + n[SlotW:0];
      end
      if (ins) begin
        nf_wvalid = 1'b1;
        nf_wdata  = {{QW{1'b0}}, 1'b1, {SlotW{1'b0}}, 1'b1};
        fetch_d   = (fetch_q + 16'd1) & mask;
        alloc_d   = alloc_q + 1'b1;
      end
      if ((load || ins) && inbuf == '0) db_since_d[fq] = 1'b0;
      if (nf_pop) begin
        ready_d = ready_q + nf_size;
        if (pop_err) begin
          // The read's slots: nf_size of them from ready_q on, in pq's region.
          for (int unsigned s = 0; s < BufDescs; s++) begin
            if ((s >> (SlotW - 32'(rlog))) == 32'(pq) &&
                {1'b0, (SlotW'(s) - ready_q[SlotW-1:0]) & rmask} < nf_size) derr_d[s] = 1'b1;
          end
        end
      end

      // A descriptor leaves.
      if (take) begin
        rd_d         = rd_q + 1'b1;
        derr_d[hslot] = 1'b0;
        if (cons_h == lim_q) lim_valid_d = 1'b0;  // the last published one left
      end

      // Not owned (or unusable) at the head: flush once no read is in flight.
      // A not-owned flush counts and disarms (unless a doorbell may have been
      // missed); a DMA-error flush does neither.
      if (head_stop) fl_cnt_d = !head_derr;
      if (sub) begin
        flush_d = 1'b0;  // the head is owned again: cancel
      end else if (flush_q || head_stop) begin
        flush_d = 1'b1;
        if (no_reads) begin
          // The fetch queue is the flushed one (fq above): its region
          // goes, its fetch pointer rewinds to its cons.
          flush_d     = 1'b0;
          rd_d        = alloc_q;  // == ready_m[fq]: every read retired
          fetch_d     = cp_m[fq][15:0];
          for (int unsigned s = 0; s < BufDescs; s++) begin
            if ((s >> (SlotW - 32'(rlog))) == 32'(fq)) derr_d[s] = 1'b0;
          end
          not_owned_o = fl_cnt_d;
          if (fl_cnt_d) armed_d[fq] = db_since_q[fq];
        end
      end

      if (doorbell_i) begin
        armed_d[dq]    = 1'b1;
        db_since_d[dq] = 1'b1;
      end
      if (!owner) armed_d = '0;
      if (armed_d == '0) unb_d = 1'b0;
      if (doorbell_i && !wc_close_i) lim_valid_d = 1'b0;  // a TAIL write
      if (wc_close_i) begin
        if (wc_idx_valid_i) begin
          lim_valid_d = 1'b1;
        end else begin
          unb_d = 1'b1;
        end
      end

      // The held write-combining block.
      if (blk_stale) begin
        blk_valid_d = 1'b0;
        blk_drop    = 1'b1;
      end
      if (ins || sub) blk_valid_d = 1'b0;
      if (blk_valid_i) begin
        if (blk_valid_q && !blk_stale && !ins && !sub) blk_drop = 1'b1;  // replaced
        blk_valid_d = 1'b1;
      end

      // The flush (QUEUES 1; no_reads implies flush_q || head_stop, so a
      // flush, a read retiring and a descriptor leaving are all in act).
      fl_go = no_reads && !sub;
      // Ready: the retiring read's queue, and the head's, on a clock that
      // writes their pointers (a read retires, a descriptor leaves, a flush):
      // otherwise each bit already says ready_m != rd_m of its queue and the
      // register keeps its value (rdy_d is then unused).  Keep both forms
      // with one queue too: pq is what the retirement FIFO's slot last held
      // (after a multi-queue run, another queue).
      // With several queues a flush (no read retiring, no descriptor
      // leaving: the head is unusable) empties the fetch queue's region.
      rdy_we = nf_pop || take || fl_go;
      if (rdy_we) begin
        rdy_d = rdy_q;
        if (fl_go && multi) begin
          rdy_d[fq] = 1'b0;
        end else begin
          rdy_d[pq]   = ready_d != ((pq == sq_i) ? rd_d : rd_m[pq]);
          rdy_d[sq_i] = ((sq_i == pq) ? ready_d : ready_m[sq_i]) != rd_d;
        end
      end
    end
    wc_drop_o = blk_drop;
    wc_used_o = ins || sub;
  end

  // The per-queue masks, updated for the entries written this cycle only.
  logic [15:0] ftail_new;
  logic [15:0] dbfetch_new;
  logic        skip;  // the fetch queue's region has no room for its read: pass it over
  logic        mq_same;  // several queues: the work mask and queue pointer stay

  always_comb begin
    // Work: the fetch queue's, and the doorbell's (kept with QUEUES > 1
    // only: one queue fetches by its tail; QUEUES changes only after a
    // queue reset, which clears the mask).
    // The fetch pointer over queues and the slot count (idle_o with
    // QUEUES > 1) likewise: one queue leaves them at their reset value
    // (their registers are written only with several queues; *_d unused).
    ftail_new   = '0;
    dbfetch_new = '0;
    skip        = 1'b0;
    work_d      = '0;
    fptr_d      = '0;
    tot_d       = '0;
    mq_same     = 1'b1;
    if (multi) begin
      work_d      = work_q;
      fptr_d      = fptr_q;
      tot_d       = tot_q;
      if (!owner) begin
        ftail_new   = (doorbell_i && db_q_i == fq) ? db_tail_i : f_cfg_i.tail;
        dbfetch_new = (db_q_i == fq) ? fetch_d : fa_m[db_q_i][16+SlotW:SlotW+1];
        work_d[fq]  = ftail_new != fetch_d;
        if (doorbell_i) work_d[db_q_i] = db_tail_i != dbfetch_new;
      end else begin
        work_d = act ? armed_d : armed_q;  // Owner: an armed queue has work
      end
      // Pass over a queue whose region has no free slot, or (Owner) whose
      // ring has no room; not while a head is unusable or a flush waits
      // (fq is then that queue, and nothing is fetched).
      if (!head_bad && !flush_q) begin
        skip = fany && !load && (rsize == inbuf || (owner && avail == 17'd0));
      end
      if (load || skip) fptr_d = fq + 1'b1;
      // Slots handed out and not consumed, all queues.
      if (load) tot_d = tot_d + n[SlotW:0];
      if (ins)  tot_d = tot_d + 1'b1;
      if (take) tot_d = tot_d - 1'b1;
      if (fl_go) tot_d = tot_d - inbuf;  // the flushed region's
      mq_same = work_d == work_q && fptr_d == fptr_q;
    end
  end

  // Descriptor words are written like a RAM, by read completions (each
  // 8-byte word of a beat at its slot and half) or by a block insertion or
  // substitution (never both at once: insertion and substitution wait for
  // a cycle without a read completion, and they need the fetch pointer at
  // k resp. past k).
  // One write port per word of a beat in each array (word 0's also takes
  // a block's two words: each write port costs the simulation a delayed
  // write, set up and tested on every clock).
  logic                blk_en;
  logic [NumWords-1:0] wa_en, wl_en;     // word j goes to mem_a / mem_l
  logic [NumWords*SlotW-1:0] wd_slot;  // word j's slot at [SlotW*j +: SlotW]

  always_comb begin
    logic [BPtrW-4:0] pos;  // a word's 8-byte position: {slot, half}
    blk_en   = ins || sub;
    pos      = '0;
    wa_en    = '0;
    wl_en    = '0;
    wd_slot  = '0;
    if (wr_valid_i) begin  // (no word is written otherwise)
      for (int unsigned j = 0; j < NumWords; j++) begin
        pos      = wr_ptr_i[BPtrW-1:3] + (BPtrW - 3)'(j);
        wa_en[j] = wr_words_i[j] && !pos[0];
        wl_en[j] = wr_words_i[j] && pos[0];
        wd_slot[SlotW*j +: SlotW] = pos[BPtrW-4:1];
      end
    end else if (blk_en) begin  // (ins and sub need a cycle without read data)
      wa_en[0] = 1'b1;
      wl_en[0] = 1'b1;
      wd_slot[SlotW-1:0] = ins ? aslot : hslot;
    end
  end

  always_ff @(posedge clk_i) begin
    if (wa_en[0]) mem_a[wd_slot[SlotW-1:0]] <= wr_valid_i ? wr_data_i[63:0] : blk_w0_q;
    if (wl_en[0]) mem_l[wd_slot[SlotW-1:0]] <= wr_valid_i ? wr_data_i[63:0] : blk_w1_q;
    for (int unsigned j = 1; j < NumWords; j++) begin
      if (wa_en[j]) mem_a[wd_slot[SlotW*j +: SlotW]] <= wr_data_i[64 * j +: 64];
      if (wl_en[j]) mem_l[wd_slot[SlotW*j +: SlotW]] <= wr_data_i[64 * j +: 64];
    end
  end

  assign desc_o.addr  = w_addr;
  assign desc_o.len   = w_len[13:0];
  assign desc_o.bad   = w_len[15:0] == 16'd0 || w_len[15:14] != 2'b00 || head_derr;
  assign desc_o.err   = head_derr;
  assign flush_o      = fl_go && fq == sq_i;  // (the scheduler lets go of sq_i)

  assign req_valid_o = req_valid_q;
  assign f_q_o       = fq;
  assign rdy_o       = rdy_q;
  assign work_o      = work_q;
  assign desc_q_o    = sq_i;
  assign req_o       = req_q;
  assign req_wptr_o  = req_wptr_q;
  // Idle: nothing in flight or buffered, and nothing to fetch or insert.
  always_comb begin
    if (multi) begin
      idle_o = !req_valid_q && tot_q == '0 && (!enable_i || stop_i || work_q == '0);
    end else if (!owner) begin
      idle_o = !req_valid_q && alloc_q == rd_q && (!enable_i || stop_i || tail_avail == 16'd0);
    end else begin
      idle_o = !req_valid_q && alloc_q == rd_q && !flush_q && !blk_stale &&
               (!enable_i || stop_i || (avail == 17'd0 && !blk_at_f));
    end
  end

  // Nothing changes on this clock (above); the work mask and pointer are
  // compared whole, so a queue's update is never missed (the ready mask
  // changes only with a retirement, a descriptor leaving or a flush).
  // Tail: left over from an owner protocol, armed, unbounded or a held
  // block are cleared on the next clock: not waiting.  The owner
  // protocols: armed (the fetcher looks at the ring without a tail) waits
  // like a tail with descriptors to fetch, until a slot frees; a flush
  // going on waits for its reads' completions (no load, insertion or
  // descriptor leaving meanwhile; a retirement, or the flush ending, fl_go,
  // is a change); not with a flush starting, a WC close, a block arriving,
  // inserted, substituted or dropped as stale, or unbounded with nothing
  // armed.
  always_comb begin
    wait_o = idle_o;
    if (!idle_o && !req_valid_q) begin
      wait_o = !load && !nf_pop && !take && !doorbell_i && !fl_go && mq_same;
      if (!owner) begin
        wait_o = wait_o && armed_q == '0 && !unb_q && !blk_valid_q;
      end else begin
        wait_o = wait_o && !head_stop && !wc_close_i && !blk_valid_i && !ins &&
                 !sub && !blk_stale && (armed_q != '0 || !unb_q);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned q = 0; q < NumQueues; q++) begin
        fa_m[q]    <= '0;
        ready_m[q] <= '0;
        rd_m[q]    <= '0;
        cp_m[q]    <= {1'b1, 16'd0};
      end
      work_q      <= '0;
      rdy_q       <= '0;
      fptr_q      <= '0;
      tot_q       <= '0;
      req_valid_q <= 1'b0;
      req_q       <= '0;
      req_wptr_q  <= '0;
      armed_q     <= '0;
      fl_q        <= '0;
      unb_q       <= 1'b0;
      lim_valid_q <= 1'b0;
      lim_q       <= '0;
      db_since_q  <= '0;
      flush_q     <= 1'b0;
      fl_cnt_q    <= 1'b0;
      derr_q      <= '0;
      blk_valid_q <= 1'b0;
      blk_idx_q   <= '0;
      blk_w0_q    <= '0;
      blk_w1_q    <= '0;
    end else begin
      if (load) begin
        req_q.addr <= f_cfg_i.ring_base + {44'd0, fetch_q, 4'b0000};
        req_q.len  <= {n[9:0], 4'b0000};
        req_wptr_q <= {aslot, 4'b0000};
      end
      if (take && owner) begin
        // The head's queue's cons, in its ring (the phase flips at the wrap).
        cp_m[sq_i] <= {phase_h ^ (cons_h == hmask), (cons_h + 16'd1) & hmask};
      end
      if (head_stop) fl_q <= fq;  // (fq is the head's queue then)
      if (wc_close_i && wc_idx_valid_i) lim_q <= wc_idx_i;
      if (blk_valid_i) begin
        blk_idx_q <= blk_i.idx;
        blk_w0_q  <= blk_i.w0;
        blk_w1_q  <= blk_i.w1;
      end
      // Each entry written only when it changes (no per-cycle cost).
      if (fl_go || load || ins) begin
        fa_m[fq] <= {fetch_d, alloc_d};
      end
      if (nf_pop) ready_m[pq] <= ready_d;
      if (fl_go || take) rd_m[fl_go ? fq : sq_i] <= rd_d;
      if (multi) begin
        work_q    <= work_d;
        fptr_q    <= fptr_d;
        tot_q     <= tot_d;
      end
      if (rdy_we) rdy_q <= rdy_d;
      if (act) begin
        req_valid_q <= req_valid_d;
        armed_q     <= armed_d;
        unb_q       <= unb_d;
        lim_valid_q <= lim_valid_d;
        db_since_q  <= db_since_d;
        flush_q     <= flush_d;
        fl_cnt_q    <= fl_cnt_d;
        derr_q      <= derr_d;
        blk_valid_q <= blk_valid_d;
      end
    end
  end

`ifndef SYNTHESIS
  // A flush waits from the clock its unusable head stops it while reads
  // are in flight until the discard (fl_go) or a cancel (sub): kept in a
  // checker-only flop, from the events, not from flush_q.
  logic fl_wait_chk_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)               fl_wait_chk_q <= 1'b0;
    else if (fl_go || sub)     fl_wait_chk_q <= 1'b0;
    else if (head_stop)        fl_wait_chk_q <= 1'b1;
  end

  // Immediate assertions at the rising edge, on the values before it: the
  // same as concurrent ones sampled there, but cheaper in Verilator 5.006
  // (nictx_dma_rd.sv says why; about a sixth of a run's time with the
  // assertions on went to this file's and nictx_cpl.sv's).
  always @(posedge clk_i) begin
    if (rst_ni) begin
      // Descriptors are 16-byte aligned in the ring and in the buffer: a read
      // data beat starts on a slot (or, 8 bytes wide, on a slot's half).
      WordOnSlot_A: assert (!wr_valid_i ||
                            (wr_ptr_i[2:0] == 3'd0 && (DataBytes == 8 || !wr_ptr_i[3])));
      // The buffer holds exactly the ring indices [cons, fetch).
      // (Tail keeps no cons: only the owner protocols' is checked.)
      FetchIsConsPlusBuffered_A: assert (!owner ||
                                         ((fetch_q - cp_m[fq][15:0]) & mask) == (inbuf16 & mask))
        else $error("nictx_desc_fetch: queue %0d fetch %0d cons %0d buffered %0d", fq, fetch_q,
                    cp_m[fq][15:0], inbuf);
      // A block insertion never meets a read start, completion or retirement.
      InsertAlone_A: assert (!ins || (!load && !sub && !wr_valid_i));
      // Read retirements are never lost: one pending per read in flight.
      DoneQueued_A: assert (!df_wvalid || df_wready);
      SubstituteAlone_A: assert (!sub || (!wr_valid_i && !not_owned_o && !take));
      // Nothing is discarded while a read is in flight.
      FlushAfterReads_A: assert (!not_owned_o ||
                                 (!req_valid_q && !nf_rvalid && ready_m[fq] == alloc_q));
      // Write-combining blocks only arrive in the Wc protocol.
      BlockOnlyInWc_A: assert (!blk_valid_i || proto_i == nictx_pkg::ProtoWc);
      // Queues: a descriptor never leaves for a queue >= QUEUES; reads are
      // fetched only for queues in use; a region never holds more than its
      // slots; a read stays inside its queue's region.  (That the ready mask
      // is what the pointers say is not asserted: sampling the pointer array
      // every clock costs simulation time; test_queues checks the order.)
      DescQueueInUse_A: assert (!desc_valid_o || 7'(sq_i) < queues_i);
      FetchQueueInUse_A: assert (!load || 7'(fq) < queues_i);
      RegionNotOverfull_A: assert (inbuf <= rsize);
      ReadInRegion_A: assert (!load || !multi || {1'b0, aslot & rmask} + n[SlotW:0] <= rsize);
      WcOnlySingle_A: assert (!(enable_i && multi) || proto_i != nictx_pkg::ProtoWc);
      // With one queue the single-ring paths read queue 0's state at sq_i
      // (cp_m[sq_i]): the scheduler names queue 0 then (nictx_tx_sched).
      SingleQueueHead_A: assert (multi || sq_i == '0);
      // A flush discards the queue whose head it found unusable.
      FlushOwnQueue_A: assert (!head_stop || fq == sq_i);
      // While a flush waits, no read and no block insertion starts, for any
      // queue (docs/ownership.md), and the flush stays pending.
      FlushWaitsAlone_A: assert (!fl_wait_chk_q || (!load && !ins && (flush_q || fl_go)));
    end
  end
`endif

  // verilator lint_off UNUSEDSIGNAL
  logic unused;
  assign unused = ^{nf_depth, wr_ptr_i[2:0], w_len[62:16], n[15:10]};
  // verilator lint_on UNUSEDSIGNAL

`ifndef SYNTHESIS
`ifdef NICTX_COVER
  // Functional cover points, named as in sim/lib/cover.h (docs/coverage.md):
  // compiled only by make coverage (+define+NICTX_COVER, --coverage-user);
  // the C model counts the same terms (c-model/cm_engine.c, cover_sample).
  // A held BlueFlame block found stale; a flush that starts waiting for
  // reads in flight (once a flush: its clocks may be skipped, wait_o).
  wc_stale: cover property (@(posedge clk_i) disable iff (!rst_ni) blk_stale);
  flush_reads: cover property (@(posedge clk_i) disable iff (!rst_ni) flush_d && !flush_q);
`endif
`endif

endmodule
