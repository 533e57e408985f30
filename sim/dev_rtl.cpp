// dev_rtl.cpp - the Verilated RTL (rtl/nictx_tx_top.sv) behind struct
// device_ops.  A thin extern "C" shim: plain structs in, plain structs out,
// one eval() pair per clock, no allocation after create.
#include "Vnictx_tx_top.h"
#include "verilated.h"

extern "C" {
#include "device.h"
}

namespace {

// wake_o and skip_i are 24 bits; all ones is "no limit".
constexpr uint32_t kWakeNever = 0xffffffu;

struct dev_rtl {
    VerilatedContext ctx;
    Vnictx_tx_top top;
    dev_rtl() : ctx(), top(&ctx, "nictx") {}
};

void *rtl_create(void)
{
    dev_rtl *d = new (std::nothrow) dev_rtl();
    if (d) {
        d->ctx.assertOn(true);
        d->top.clk_i = 0;
        d->top.rst_ni = 1;
        d->top.eval();
    }
    return d;
}

void rtl_destroy(void *dev)
{
    dev_rtl *d = static_cast<dev_rtl *>(dev);
    if (d) {
        // Verilator 5.006 tears a model's scopes down through the thread's
        // current context, not the model's own: point it at ours first, or
        // destroying one of two devices in a process can hang.
        Verilated::threadContextp(&d->ctx);
        d->top.final();
        delete d;
    }
}

void rtl_reset(void *dev)
{
    Vnictx_tx_top &t = static_cast<dev_rtl *>(dev)->top;
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

void rtl_step(void *dev, const struct dev_in *in, struct dev_out *out)
{
    Vnictx_tx_top &t = static_cast<dev_rtl *>(dev)->top;
    t.h2d_valid_i = in->h2d.valid;
    t.h2d_sop_i = in->h2d.sop;
    t.h2d_eop_i = in->h2d.eop;
    t.h2d_type_i = in->h2d.type;
    t.h2d_tag_i = in->h2d.tag;
    t.h2d_len_i = in->h2d.len;
    t.h2d_addr_i = in->h2d.addr;
    t.h2d_data_i = in->h2d.data;
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
    out->d2h.data = t.d2h_data_o;
    out->d2h.err = t.d2h_err_o;
    out->wire.valid = t.wire_valid_o;
    out->wire.sop = t.wire_sop_o;
    out->wire.eop = t.wire_eop_o;
    out->wire.bytes = t.wire_bytes_o;
    out->wire.fcs = t.wire_fcs_o;
    out->wire.data = t.wire_data_o;
    out->idle = t.idle_o;
    out->waiting = t.wait_o;
    out->wake = t.wake_o == kWakeNever ? UINT32_MAX : t.wake_o;

    t.clk_i = 1;
    t.eval();
    t.clk_i = 0;
    // The falling edge changes nothing (all flops are posedge); the next
    // step's eval() settles it together with the new inputs.
}

} // namespace

extern "C" const struct device_ops dev_rtl_ops = {
    "rtl", rtl_create, rtl_destroy, rtl_reset, rtl_step,
};
