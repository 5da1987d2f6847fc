/* The data set as tidy CSV files (docs/reports.md lists their columns). */
#include "dataset/ds-internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void csv_run(struct strbuf *sb, const struct ds_run *r)
{
	csv_put_str(sb, r->name);
	sb_add(sb, ",");
	csv_put_str(sb, r->section);
	sb_addf(sb, ",%d,", r->rep);
	csv_put_str(sb, r->setup);
	sb_add(sb, ",");
	csv_put_str(sb, r->kernel);
	sb_add(sb, ",");
	csv_put_str(sb, r->status);
}

char *dataset_alloc_csv(const struct dataset *ds)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,seq,burst,start_ns,pages,latency_ns,"
	       "kernel_latency_ns,busy_retries,errorno,success,errno,free_latency_ns,flags,tag,"
	       "area_occupancy_pct,timed_out,refill_wait_ns,path,align,kernel_align,from_area,"
	       "zeroed\n");
	for (size_t i = 0; i < ds->nallocs; i++) {
		const struct ds_alloc *a = &ds->allocs[i];

		csv_run(&sb, &ds->runs[a->run]);
		csv_put_ll(&sb, a->seq, DS_NONE);
		csv_put_ll(&sb, a->burst, DS_NONE);
		csv_put_ll(&sb, a->start_ns, DS_NONE);
		csv_put_ll(&sb, a->pages, DS_NONE);
		csv_put_ll(&sb, a->user_ns, DS_NONE);
		csv_put_ll(&sb, a->kernel_ns, DS_NONE);
		csv_put_ll(&sb, a->retries, DS_NONE);
		csv_put_ll(&sb, a->kerrno, DS_NONE);
		sb_addf(&sb, ",%d,%d", a->success, a->err);
		csv_put_ll(&sb, a->free_ns, DS_NONE);
		sb_addf(&sb, ",%s,", a->flags);
		csv_put_str(&sb, a->tag);
		if (isnan(a->occupancy))
			sb_add(&sb, ",");
		else
			sb_addf(&sb, ",%.1f", a->occupancy);
		sb_addf(&sb, ",%d", a->timed_out);
		csv_put_ll(&sb, a->refill_wait_ns, DS_NONE);
		sb_addf(&sb, ",%s", a->path);
		csv_put_ll(&sb, a->align, -1);
		csv_put_ll(&sb, a->kalign, DS_NONE);
		csv_put_ll(&sb, a->from_area, -1);
		csv_put_ll(&sb, a->zeroed, -1);
		sb_add(&sb, "\n");
	}
	return sb_detach(&sb);
}

char *dataset_fio_csv(const struct dataset *ds)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,file,job,read_iops,read_bw_bytes,"
	       "read_clat_p50_ns,read_clat_p99_ns,write_iops,write_bw_bytes,write_clat_p50_ns,"
	       "write_clat_p99_ns,runtime_ms,flags\n");
	for (size_t i = 0; i < ds->nfios; i++) {
		const struct ds_fio *f = &ds->fios[i];

		csv_run(&sb, &ds->runs[f->run]);
		sb_add(&sb, ",");
		csv_put_str(&sb, f->file);
		sb_add(&sb, ",");
		csv_put_str(&sb, f->job);
		sb_addf(&sb, ",%.3f,%.0f", f->read_iops, f->read_bw);
		csv_put_ll(&sb, f->read_p50, DS_NONE);
		csv_put_ll(&sb, f->read_p99, DS_NONE);
		sb_addf(&sb, ",%.3f,%.0f", f->write_iops, f->write_bw);
		csv_put_ll(&sb, f->write_p50, DS_NONE);
		csv_put_ll(&sb, f->write_p99, DS_NONE);
		csv_put_ll(&sb, f->runtime_ms, DS_NONE);
		sb_addf(&sb, ",%s\n", f->flags);
	}
	return sb_detach(&sb);
}

char *dataset_counters_csv(const struct dataset *ds)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,source,name,before,after,delta,flags\n");
	for (size_t i = 0; i < ds->ncounters; i++) {
		const struct ds_counter *c = &ds->counters[i];

		csv_run(&sb, &ds->runs[c->run]);
		sb_add(&sb, ",");
		csv_put_str(&sb, c->source);
		sb_add(&sb, ",");
		csv_put_str(&sb, c->name);
		csv_put_ll(&sb, c->before, DS_NONE);
		csv_put_ll(&sb, c->after, DS_NONE);
		csv_put_ll(&sb, c->before == DS_NONE || c->after == DS_NONE ? DS_NONE : c->after - c->before, DS_NONE);
		sb_addf(&sb, ",%s\n", c->flags);
	}
	return sb_detach(&sb);
}

char *dataset_burst_csv(const struct dataset *ds)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,burst,pages,requests,failed,start_ns,"
	       "latency_ns,timed_out\n");
	for (size_t i = 0; i < ds->nbursts; i++) {
		const struct ds_burst *b = &ds->bursts[i];

		csv_run(&sb, &ds->runs[b->run]);
		sb_addf(&sb, ",%lld,%lld,%zu,%zu,%lld,%lld,%zu\n", b->burst, b->pages, b->n, b->failed,
			b->start_ns, b->latency_ns, b->timed_out);
	}
	return sb_detach(&sb);
}

char *dataset_samples_csv(const struct dataset *ds)
{
	struct strbuf sb;

	if (!ds->nsamples)
		return NULL;
	sb_init(&sb);
	sb_add(&sb, "run,section,rep,time_s,name,value\n");
	for (size_t i = 0; i < ds->nsamples; i++) {
		const struct ds_sample *s = &ds->samples[i];
		const struct ds_run *r = &ds->runs[s->run];

		csv_put_str(&sb, r->name);
		sb_add(&sb, ",");
		csv_put_str(&sb, r->section);
		sb_addf(&sb, ",%d,%.2f,%s,", r->rep, s->t, s->name);
		sb_addf(&sb, s->derived ? "%.2f\n" : "%.15g\n", s->value);
	}
	return sb_detach(&sb);
}

char *dataset_jobs_csv(const struct dataset *ds)
{
	struct strbuf sb;

	if (!ds->njobs)
		return NULL;
	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,job,elapsed_s,user_s,sys_s\n");
	for (size_t i = 0; i < ds->njobs; i++) {
		const struct ds_job *j = &ds->jobs[i];

		csv_run(&sb, &ds->runs[j->run]);
		sb_add(&sb, ",");
		csv_put_str(&sb, j->name);
		sb_addf(&sb, ",%.3f,%.3f,%.3f\n", j->elapsed_s, j->user_s, j->sys_s);
	}
	return sb_detach(&sb);
}

char *dataset_launches_csv(const struct dataset *ds)
{
	struct strbuf sb;

	if (!ds->nlaunches)
		return NULL;
	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,seq,app,kind,launch_ns,majflt\n");
	for (size_t i = 0; i < ds->nlaunches; i++) {
		const struct ds_launch *l = &ds->launches[i];

		csv_run(&sb, &ds->runs[l->run]);
		sb_addf(&sb, ",%lld,%lld,%s,%lld,%lld\n", l->seq, l->app, l->cold ? "cold" : "warm",
			l->launch_ns, l->majflt);
	}
	return sb_detach(&sb);
}

/* One row per run: what it was and the conditions it ran under. */
char *dataset_runs_csv(const struct dataset *ds)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,disk,disk_scale,fill_target_pct,fill_reached_pct,"
	       "fill_seconds,fill_status,fill_anon_mb,vms_beside,arch,partial\n");
	for (size_t i = 0; i < ds->nruns; i++) {
		const struct ds_run *r = &ds->runs[i];

		csv_run(&sb, r);
		sb_add(&sb, ",");
		csv_put_str(&sb, r->disk);
		sb_addf(&sb, ",%.2f", r->disk_scale);
		if (isnan(r->fill_target))
			sb_add(&sb, ",,,,");
		else
			sb_addf(&sb, ",%.1f,%.1f,%.2f,", r->fill_target, r->fill_reached,
				r->fill_seconds);
		csv_put_str(&sb, r->fill_status ? r->fill_status : "");
		if (isnan(r->fill_anon_mb))
			sb_add(&sb, ",");
		else
			sb_addf(&sb, ",%.0f", r->fill_anon_mb);
		csv_put_ll(&sb, r->vms_beside, -1);
		sb_add(&sb, ",");
		csv_put_str(&sb, r->arch ? r->arch : "?");
		sb_addf(&sb, ",%d\n", r->partial);
	}
	return sb_detach(&sb);
}

char *dataset_attr_csv(const struct dataset *ds)
{
	struct strbuf sb;

	if (!ds->nattrs)
		return NULL;
	sb_init(&sb);
	sb_add(&sb, "run,section,rep,setup,kernel,status,seq,pages,success,kernel_latency_ns");
	for (int p = 0; p < DS_NPHASES; p++)
		for (int t = 0; t < DS_NSTATES; t++)
			sb_addf(&sb, ",%s_%s_ns", ds_phase_names[p], ds_tstate_names[t]);
	sb_add(&sb, ",compaction_ns,busy_retries,isolated,migrated,migrate_failed,reclaimed,dropped,"
	       "fill");
	for (int k = 0; k < DS_NFAILKINDS; k++)
		sb_addf(&sb, ",fail_%s", ds_failkind_names[k]);
	sb_add(&sb, ",sched_traced\n");
	for (size_t i = 0; i < ds->nattrs; i++) {
		const struct ds_attr *at = &ds->attrs[i].at;
		const struct ds_alloc *a = &ds->allocs[ds->attrs[i].alloc];

		csv_run(&sb, &ds->runs[a->run]);
		csv_put_ll(&sb, a->seq, DS_NONE);
		csv_put_ll(&sb, a->pages, DS_NONE);
		sb_addf(&sb, ",%d", a->success);
		csv_put_ll(&sb, a->kernel_ns, DS_NONE);
		for (int p = 0; p < DS_NPHASES; p++)
			for (int t = 0; t < DS_NSTATES; t++)
				sb_addf(&sb, ",%lld", at->ns[p][t]);
		sb_addf(&sb, ",%lld,%lld,%lld,%lld,%lld,%lld,%lld,", at->compaction_ns, at->retries,
			at->isolated, at->migrated, at->failed, at->reclaimed, at->dropped);
		if (a->pages > 0)
			sb_addf(&sb, "%.4f", (double)ds_attr_moved(at) / (double)a->pages);
		for (int k = 0; k < DS_NFAILKINDS; k++)
			if (at->failkind_traced)
				sb_addf(&sb, ",%lld", at->failkind[k]);
			else
				sb_add(&sb, ",");
		sb_addf(&sb, ",%d\n", at->sched_traced);
	}
	return sb_detach(&sb);
}

int dataset_write_csv(const struct dataset *ds, const char *outdir)
{
	struct strbuf probs;
	char *samples, *jobs, *attr, *launches;
	int ret = 0;

	if (mkdir_p(outdir)) {
		err_msg("%s: %s", outdir, strerror(errno));
		return -1;
	}
	sb_init(&probs);
	for (size_t i = 0; i < ds->nruns; i++)
		for (size_t k = 0; k < ds->runs[i].problems.n; k++)
			sb_addf(&probs, "%s\n", ds->runs[i].problems.v[k]);
	ret |= write_text(outdir, "runs.csv", dataset_runs_csv(ds));
	ret |= write_text(outdir, "alloc.csv", dataset_alloc_csv(ds));
	if (ds->nbursts)
		ret |= write_text(outdir, "bursts.csv", dataset_burst_csv(ds));
	ret |= write_text(outdir, "fio.csv", dataset_fio_csv(ds));
	ret |= write_text(outdir, "counters.csv", dataset_counters_csv(ds));
	ret |= write_text(outdir, "problems.txt", sb_detach(&probs));
	if ((samples = dataset_samples_csv(ds)))
		ret |= write_text(outdir, "samples.csv", samples);
	if ((jobs = dataset_jobs_csv(ds)))
		ret |= write_text(outdir, "jobs.csv", jobs);
	if ((launches = dataset_launches_csv(ds)))
		ret |= write_text(outdir, "launches.csv", launches);
	if ((attr = dataset_attr_csv(ds))) {
		ret |= write_text(outdir, "attribution.csv", attr);
	} else {
		/* none left from an earlier report of other data */
		char *old = path_join(outdir, "attribution.csv");

		if (unlink(old) && errno != ENOENT)
			ret |= -1;
		free(old);
	}
	return ret;
}
