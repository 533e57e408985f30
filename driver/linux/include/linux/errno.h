/* SPDX-License-Identifier: Apache-2.0 */
/* linux/errno.h - the kernel's error numbers a transmit path returns. */
#ifndef _NICTX_LINUX_ERRNO_H
#define _NICTX_LINUX_ERRNO_H

#define EPERM 1
#define ENOENT 2
#define EIO 5
#define ENOMEM 12
#define EBUSY 16
#define ENODEV 19
#define EINVAL 22
#define ENOSPC 28
#define ETIMEDOUT 110

#endif
