/*
 * area-state AREA: one "name,value" line per quantity of the area's state
 * (area.h): total, used, free, tenants, occupancy_pct and, for a CMA area,
 * the tenants on the LRU lists by kind (anon, file). The guest sampler
 * prefixes them with the time.
 */
#include "area.h"
#include "guest.h"

int main(int argc, char **argv)
{
	struct area_state s;

	if (argc != 2) {
		fprintf(stderr, "usage: area-state AREA\n");
		return 2;
	}
	if (area_read(argv[1], 1, &s)) {
		fprintf(stderr, "area-state: %s: no such area\n", argv[1]);
		return 1;
	}
	printf("total,%ld\nused,%ld\nfree,%ld\ntenants,%ld\noccupancy_pct,%.1f\n", s.total, s.used,
	       s.free, s.tenants, area_occupancy(&s));
	if (s.anon >= 0)
		printf("anon,%ld\nfile,%ld\n", s.anon, s.file);
	return 0;
}
