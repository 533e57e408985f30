/* SPDX-License-Identifier: Apache-2.0 */
/* area.c - `nictx area` (area.h). */
#include "cli/area.h"

#include <stdio.h>

#include "cli/run_args.h"
#include "device/dev_area.h"
#include "device/dev_hw.h"

static const char *const helps[] = {
#define AREA_HELP(name, help) help,
    DEV_AREA_FIELDS(AREA_HELP)
#undef AREA_HELP
};

int cli_area_main(int argc, char **argv)
{
    struct cli_run_opts ro;
    struct dev_area a;
    char err[512], key[DEV_HW_KEY_MAX];
    int rc = cli_run_parse_valid(argc, argv, stderr, &ro);

    if (rc != CLI_RUN_GO)
        return rc;
    if (dev_area_get(ro.cfg.dev_width, &ro.cfg.hw, &a, err, sizeof(err)) != 0) {
        fprintf(stderr, "nictx: area: %s\n", err);
        return 1;
    }
    dev_hw_key(ro.cfg.dev_width, &ro.cfg.hw, key);
    printf("area of %s (Yosys 0.23)\n", key);
    for (unsigned i = 0; i < DEV_AREA_N; i++)
        printf("  %-12s %10lu  %s\n", dev_area_name(i), dev_area_value(&a, i), helps[i]);
    return 0;
}
