/* SPDX-License-Identifier: Apache-2.0 */
/*
 * linux/pci.h - the one PCI function a transmit path's probe needs, for
 * nictx's kernel layer: BAR0 mapped uncached (pci_iomap) or
 * write-combining (pci_iomap_wc).  There is one device and one BAR: pdev
 * may be NULL, bar must be 0.
 */
#ifndef _NICTX_LINUX_PCI_H
#define _NICTX_LINUX_PCI_H

#include "linux/io.h"

struct pci_dev;

void __iomem *pci_iomap(struct pci_dev *pdev, int bar, unsigned long maxlen);
void __iomem *pci_iomap_wc(struct pci_dev *pdev, int bar, unsigned long maxlen);
static inline void pci_iounmap(struct pci_dev *pdev, void __iomem *addr)
{
    (void)pdev;
    (void)addr;
}

int pci_enable_msix_range(struct pci_dev *pdev, void *entries, int minvec, int maxvec)
    NICTX_UNMODELLED("MSI-X set-up (program the vector's registers through BAR0)");
int request_irq(unsigned int irq, void *handler, unsigned long flags, const char *name, void *dev)
    NICTX_UNMODELLED("interrupt handlers (the harness runs the NAPI poll: txq_clean_budget)");

#endif
