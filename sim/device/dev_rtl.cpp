// SPDX-License-Identifier: Apache-2.0
// dev_rtl.cpp - the Verilated RTL (rtl/nictx_tx_top.sv) behind struct
// device_ops.  A thin extern "C" shim: plain structs in, plain structs out,
// one eval() pair per clock, no allocation after create.
//
// Compiled once per datapath width: DEV_RTL_WIDTH (8, 16, 32, 64; default
// 8) picks the model Vnictx_tx_top_wW (verilated with -GDataBytes=W
// --prefix Vnictx_tx_top_wW) and names the ops dev_rtl_ops_wW; the 8-byte
// build also exports them as dev_rtl_ops.
//
// Waveforms (--wave, docs/observability.md): with DEV_RTL_TRACE=1 the same
// shim is compiled for the trace-enabled model Vnictx_tx_top_wW_trace
// (verilated with --trace-fst, a build of its own, so the default model
// pays nothing for it) as dev_rtl_trace_ops_wW, which writes FST inside
// the window.  DEV_RTL_HAVE_TRACE=1 (the default) points the plain model's
// ops at it (device_ops.traced); a build without trace models sets 0.
//
// Another hardware combination (struct dev_hw; docs/codesign.md): with
// DEV_RTL_SO=1 the shim is compiled for the model Vnictx_tx_top_so of a
// shared object (scripts/model-build.sh), without tracing, as
// dev_rtl_so_ops, which sim/device/dev_models.c looks up after dlopen.
//
// An RTL assertion does not abort the process: it sets dev_out.fault, and
// the run ends with it (and its snapshot).
#ifndef DEV_RTL_WIDTH
#define DEV_RTL_WIDTH 8
#endif
#ifndef DEV_RTL_TRACE
#define DEV_RTL_TRACE 0
#endif
#ifndef DEV_RTL_HAVE_TRACE
#define DEV_RTL_HAVE_TRACE 1
#endif
#define DEV_RTL_CAT2(a, b) a##b
#define DEV_RTL_CAT(a, b) DEV_RTL_CAT2(a, b)
#define DEV_RTL_STR2(x) #x
#define DEV_RTL_STR(x) DEV_RTL_STR2(x)
#ifndef DEV_RTL_SO
#define DEV_RTL_SO 0
#endif
#if DEV_RTL_SO
#define DEV_RTL_MODEL Vnictx_tx_top_so
#define DEV_RTL_OPS dev_rtl_so_ops
#elif DEV_RTL_TRACE
#define DEV_RTL_MODEL DEV_RTL_CAT(DEV_RTL_CAT(Vnictx_tx_top_w, DEV_RTL_WIDTH), _trace)
#define DEV_RTL_OPS DEV_RTL_CAT(dev_rtl_trace_ops_w, DEV_RTL_WIDTH)
#else
#define DEV_RTL_MODEL DEV_RTL_CAT(Vnictx_tx_top_w, DEV_RTL_WIDTH)
#define DEV_RTL_OPS DEV_RTL_CAT(dev_rtl_ops_w, DEV_RTL_WIDTH)
#endif
#define DEV_RTL_TRACE_OPS DEV_RTL_CAT(dev_rtl_trace_ops_w, DEV_RTL_WIDTH)

#include DEV_RTL_STR(DEV_RTL_MODEL.h)
#include "verilated.h"
#if DEV_RTL_TRACE
#include "verilated_fst_c.h"
#endif
#if VM_COVERAGE
#include "verilated_cov.h"
#include <cstdlib>
#include <ctime>
#include <unistd.h>
#endif

#include <cstdio>
#include <cstring>

extern "C" {
#include "device/device.h"
#include "obs/obs_file.h"
}

static_assert(DEV_RTL_WIDTH <= DEV_WIDTH_MAX, "a beat's lanes do not fit struct dev_beat");

namespace {

// wake_o and skip_i are 24 bits; all ones is "no limit".
constexpr uint32_t kWakeNever = 0xffffffu;

struct dev_rtl {
    VerilatedContext ctx;
    DEV_RTL_MODEL top;
    char fault[160];
#if DEV_RTL_TRACE
    VerilatedFstC *fst = nullptr;
    struct obs_file of;
    struct dev_wave w;
    // Tracing must be on before the model is built.
    dev_rtl() : ctx(), top((ctx.traceEverOn(true), &ctx), "nictx"), fault() {}
#else
    dev_rtl() : ctx(), top(&ctx, "nictx"), fault() {}
#endif
};

// Data lanes between the beat structs (lane i = byte i) and a port of
// DEV_RTL_WIDTH bytes: a 64-bit port (QData) or a wide one (VlWide, 32-bit
// words, least significant first); both little-endian on the host.
static_assert(sizeof(QData) == 8, "QData is 64 bits");
inline void lanes_in(QData &port, const uint8_t *lanes) { std::memcpy(&port, lanes, 8); }
inline void lanes_out(uint8_t *lanes, const QData &port) { std::memcpy(lanes, &port, 8); }
template <std::size_t N> inline void lanes_in(VlWide<N> &port, const uint8_t *lanes)
{
    static_assert(N * 4 == DEV_RTL_WIDTH, "port width");
    std::memcpy(port.data(), lanes, N * 4);
}
template <std::size_t N> inline void lanes_out(uint8_t *lanes, const VlWide<N> &port)
{
    std::memcpy(lanes, port.data(), N * 4);
}

void *rtl_create(void)
{
    dev_rtl *d = new (std::nothrow) dev_rtl();
    if (d) {
        d->ctx.assertOn(true);
        d->ctx.fatalOnError(false); // an assertion is a fault, not an abort
        d->top.clk_i = 0;
        d->top.rst_ni = 1;
        d->top.eval();
    }
    return d;
}

#if VM_COVERAGE
// make coverage (COV=1, docs/coverage.md): the device's coverage counts
// (line, toggle, cover points) into a file of its own under
// $NICTX_VCOV_DIR, when that is set; verilator_coverage merges them.
void rtl_cover_write(dev_rtl *d)
{
    const char *dir = std::getenv("NICTX_VCOV_DIR");
    struct timespec ts;
    char path[4096];

    if (!dir || !*dir)
        return;
    clock_gettime(CLOCK_REALTIME, &ts);
    std::snprintf(path, sizeof(path), "%s/vcov-%ld-%lld-%09ld-%p.dat", dir, static_cast<long>(getpid()),
                  static_cast<long long>(ts.tv_sec), ts.tv_nsec, static_cast<void *>(d));
    d->ctx.coveragep()->write(path);
}
#endif

void rtl_destroy(void *dev)
{
    dev_rtl *d = static_cast<dev_rtl *>(dev);
    if (d) {
        // Verilator 5.006 tears a model's scopes down through the thread's
        // current context, not the model's own: point it at ours first, or
        // destroying one of two devices in a process can hang.
        Verilated::threadContextp(&d->ctx);
#if DEV_RTL_TRACE
        if (d->fst) {
            d->fst->close();
            delete d->fst;
            obs_file_abort(&d->of);
        }
#endif
        d->top.final();
#if VM_COVERAGE
        rtl_cover_write(d);
#endif
        delete d;
    }
}

void rtl_reset(void *dev)
{
    DEV_RTL_MODEL &t = static_cast<dev_rtl *>(dev)->top;
    t.h2d_valid_i = 0;
    t.d2h_ready_i = 0;
    t.wire_ready_i = 0;
    t.rst_ni = 0;
    t.eval();
    for (int i = 0; i < 4; i++) {
        t.clk_i = 1;
        t.eval();
        t.clk_i = 0;
        t.eval();
    }
    t.rst_ni = 1;
    t.eval();
}

#if DEV_RTL_TRACE
// One sample of the clock that ends at *now: the values the edge samples
// (the eval with the clock low) at the start of its period with the clock
// high, the clock low half a period later.  The clock is set high for the
// first dump alone; an eval with it low again (no edge: it was low at the
// last one, so nothing changes) lets the second dump see it.
inline void rtl_wave(dev_rtl *d)
{
    const sim_ps_t edge = *d->w.now;
    const sim_ps_t t0 = edge > d->w.period_ps ? edge - d->w.period_ps : 0;

    if (t0 < d->w.win->from || t0 >= d->w.win->to)
        return;
    d->top.clk_i = 1;
    d->fst->dump(t0);
    d->top.clk_i = 0;
    if (t0 + d->w.period_ps / 2 < d->w.win->to) {
        d->top.eval();
        d->fst->dump(t0 + d->w.period_ps / 2);
    }
}
#endif

void rtl_step(void *dev, const struct dev_in *in, struct dev_out *out)
{
    dev_rtl *d = static_cast<dev_rtl *>(dev);
    DEV_RTL_MODEL &t = d->top;
    t.h2d_valid_i = in->h2d.valid;
    t.h2d_sop_i = in->h2d.sop;
    t.h2d_eop_i = in->h2d.eop;
    t.h2d_type_i = in->h2d.type;
    t.h2d_tag_i = in->h2d.tag;
    t.h2d_len_i = in->h2d.len;
    t.h2d_addr_i = in->h2d.addr;
    lanes_in(t.h2d_data_i, in->h2d.data);
    t.h2d_err_i = in->h2d.err;
    t.d2h_ready_i = in->d2h_ready;
    t.wire_ready_i = in->wire_ready;
    t.skip_i = in->skip < kWakeNever ? in->skip : kWakeNever;
    t.eval(); // settle combinational outputs for this cycle (clock low)

    out->h2d_ready = t.h2d_ready_o;
    out->d2h.valid = t.d2h_valid_o;
    out->d2h.sop = t.d2h_sop_o;
    out->d2h.eop = t.d2h_eop_o;
    out->d2h.type = t.d2h_type_o;
    out->d2h.tag = t.d2h_tag_o;
    out->d2h.len = t.d2h_len_o;
    out->d2h.addr = t.d2h_addr_o;
    lanes_out(out->d2h.data, t.d2h_data_o);
    out->d2h.err = t.d2h_err_o;
    out->wire.valid = t.wire_valid_o;
    out->wire.sop = t.wire_sop_o;
    out->wire.eop = t.wire_eop_o;
    out->wire.bytes = t.wire_bytes_o;
    out->wire.fcs = t.wire_fcs_o;
    lanes_out(out->wire.data, t.wire_data_o);
    out->idle = t.idle_o;
    out->waiting = t.wait_o;
    out->wake = t.wake_o == kWakeNever ? UINT32_MAX : t.wake_o;
#if DEV_RTL_TRACE
    if (d->fst)
        rtl_wave(d);
#endif

    t.clk_i = 1;
    t.eval();
    t.clk_i = 0;
    // The falling edge changes nothing (all flops are posedge); the next
    // step's eval() settles it together with the new inputs.
    out->fault = d->ctx.gotError(); // an assertion failed on this edge
}

const char *rtl_fault(const void *dev)
{
    const dev_rtl *d = static_cast<const dev_rtl *>(dev);

    if (!d->ctx.gotError())
        return nullptr;
    if (!d->fault[0])
        std::snprintf(const_cast<char *>(d->fault), sizeof(d->fault),
                      "RTL assertion failed (its %%Error line is printed above)");
    return d->fault;
}

#if DEV_RTL_TRACE
int rtl_wave_open(void *dev, const struct dev_wave *w, char *err, size_t n)
{
    dev_rtl *d = static_cast<dev_rtl *>(dev);

    if (d->fst) {
        std::snprintf(err, n, "the waveform is already open");
        return -1;
    }
    if (obs_file_begin(&d->of, w->path, 0, err, n) != 0)
        return -1;
    d->w = *w;
    d->fst = new (std::nothrow) VerilatedFstC;
    if (!d->fst) {
        std::snprintf(err, n, "out of memory");
        return -1;
    }
    Verilated::threadContextp(&d->ctx);
    d->top.trace(d->fst, 99);
    d->fst->open(d->of.tmp);
    if (!d->fst->isOpen()) {
        std::snprintf(err, n, "%s: cannot create a file in its directory", w->path);
        delete d->fst;
        d->fst = nullptr;
        return -1;
    }
    return 0;
}

int rtl_wave_close(void *dev, char *err, size_t n)
{
    dev_rtl *d = static_cast<dev_rtl *>(dev);

    if (!d->fst)
        return 0;
    d->fst->close();
    delete d->fst;
    d->fst = nullptr;
    return obs_file_commit(&d->of, err, n);
}
#endif

} // namespace

#if DEV_RTL_TRACE
extern "C" const struct device_ops DEV_RTL_OPS = {
    "rtl",     DEV_RTL_WIDTH,  rtl_create,     rtl_destroy, rtl_reset,
    rtl_step,  rtl_fault,      rtl_wave_open,  rtl_wave_close, &DEV_RTL_OPS,
    nullptr,   nullptr,        nullptr,        nullptr,        nullptr,
};
#else
#if DEV_RTL_HAVE_TRACE
extern "C" const struct device_ops DEV_RTL_TRACE_OPS;
#define DEV_RTL_TRACED (&DEV_RTL_TRACE_OPS)
#else
#define DEV_RTL_TRACED nullptr
#endif
extern "C" const struct device_ops DEV_RTL_OPS = {
    "rtl",    DEV_RTL_WIDTH, rtl_create, rtl_destroy, rtl_reset,
    rtl_step, rtl_fault,     nullptr,    nullptr,     DEV_RTL_TRACED, nullptr,
    nullptr,  nullptr,       nullptr,    nullptr,
};
#if DEV_RTL_WIDTH == 8 && !DEV_RTL_SO
extern "C" const struct device_ops dev_rtl_ops = {
    "rtl",    DEV_RTL_WIDTH, rtl_create, rtl_destroy, rtl_reset,
    rtl_step, rtl_fault,     nullptr,    nullptr,     DEV_RTL_TRACED, nullptr,
    nullptr,  nullptr,       nullptr,    nullptr,
};
#endif
#endif
