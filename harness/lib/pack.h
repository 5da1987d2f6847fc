/* Packing a results directory's runs/ (lib/pack.c). */
#ifndef CMB_PACK_H
#define CMB_PACK_H

#include <stdbool.h>

/*
 * Packs dir/runs/ into dir/runs.tar.xz (written aside and renamed) and,
 * unless keep, removes runs/. 0 when packed (or already packed: no runs/,
 * an archive), else 1 with the reason on stderr and nothing changed.
 */
int pack_runs(const char *dir, bool keep);

#endif
