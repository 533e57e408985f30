// SPDX-License-Identifier: Apache-2.0
// vp_mem.h - the virtual platform's host memory: a TLM-2.0 memory target
// that the NIC's dma socket reaches, and the DMA-coherent memory the host's
// driver allocates from and writes through plain pointers.
//
// Reads are answered with the read latency annotated (no wait), writes with
// none.  An access outside [base, base + size) answers
// TLM_ADDRESS_ERROR_RESPONSE; an armed fault (arm_read_fault) makes the next
// read that overlaps its range answer TLM_GENERIC_ERROR_RESPONSE, once.
// Every write notifies `written` (a busy-polling driver wakes on it).
#ifndef NICTX_VP_MEM_H
#define NICTX_VP_MEM_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <cstring>
#include <vector>

class nictx_vp_mem : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<nictx_vp_mem> socket;
    sc_core::sc_event written;

    nictx_vp_mem(sc_core::sc_module_name name, uint64_t base, size_t size,
                 sc_core::sc_time read_latency)
        : sc_module(name), socket("socket"), base_(base), bytes_(size), lat_(read_latency)
    {
        socket.register_b_transport(this, &nictx_vp_mem::b_transport);
    }

    // The CPU's pointer to [addr, addr + len), or nullptr outside memory.
    uint8_t *ptr(uint64_t addr, size_t len)
    {
        if (addr < base_ || len > bytes_.size() || addr - base_ > bytes_.size() - len)
            return nullptr;
        return bytes_.data() + (addr - base_);
    }
    // Bump allocation, zeroed: the CPU pointer, the bus address in *dma;
    // nullptr when memory is exhausted.
    void *alloc(size_t size, size_t align, uint64_t *dma)
    {
        size_t at = (next_ + align - 1) & ~(align - 1);
        if (at > bytes_.size() || size > bytes_.size() - at)
            return nullptr;
        next_ = at + size;
        *dma = base_ + at;
        return bytes_.data() + at;
    }
    // Whether [p, p + len) is this memory (a CPU pointer).
    bool holds(const void *p, size_t len) const
    {
        const uint8_t *b = static_cast<const uint8_t *>(p);
        return b >= bytes_.data() && len <= bytes_.size() &&
               static_cast<size_t>(b - bytes_.data()) <= bytes_.size() - len;
    }
    // The bus address of a CPU pointer into memory.
    uint64_t bus(const void *p) const
    {
        return base_ + static_cast<uint64_t>(static_cast<const uint8_t *>(p) - bytes_.data());
    }
    void arm_read_fault(uint64_t lo, uint64_t hi) { faults_.push_back({lo, hi}); }
    uint64_t faults_fired() const { return fired_; }

private:
    struct range {
        uint64_t lo, hi;
    };

    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
    {
        const uint64_t a = gp.get_address();
        const unsigned len = gp.get_data_length();
        uint8_t *p = ptr(a, len);

        if (!p || gp.get_byte_enable_ptr() || gp.get_streaming_width() < len) {
            gp.set_response_status(!p ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                      : tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
            return;
        }
        if (gp.is_read()) {
            for (size_t i = 0; i < faults_.size(); i++) {
                if (a < faults_[i].hi && faults_[i].lo < a + len) {
                    faults_.erase(faults_.begin() + static_cast<long>(i));
                    fired_++;
                    gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
                    return;
                }
            }
            std::memcpy(gp.get_data_ptr(), p, len);
            delay += lat_;
        } else if (gp.is_write()) {
            std::memcpy(p, gp.get_data_ptr(), len);
            written.notify(delay);
        }
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }

    uint64_t base_;
    std::vector<uint8_t> bytes_;
    size_t next_ = 0;
    sc_core::sc_time lat_;
    std::vector<range> faults_;
    uint64_t fired_ = 0;
};

#endif // NICTX_VP_MEM_H
