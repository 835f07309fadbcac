/* What a results folder says about how its runs were made: the matrix as
 * planned (plan.txt, else the *.matrix file, else what runs.csv shows),
 * kernel and image (kernel.txt, image.txt, else runs.csv's sha256
 * columns), series-version.txt, host.txt, seed.txt and the host's load
 * per run. Read by summary.json (run/stats) and by run/compare, which
 * checks that folders ran the same matrix. */
#include "pjt-stats.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const provenance_source_names[NSOURCES] = { "plan.txt", "matrix file", "runs.csv" };

static char *file_in(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *text = read_whole_file(path, NULL);

	free(path);
	return text;
}

static char *trimmed(const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	return xasprintf("%.*s", (int)len, s);
}

/* Line N (1-based) of text, trimmed; NULL when absent or empty. */
static char *line_of(const char *text, int n)
{
	for (int i = 1; text && *text; i++) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		if (i == n) {
			char *s = trimmed(text, len);

			if (*s)
				return s;
			free(s);
			return NULL;
		}
		if (!nl)
			break;
		text = nl + 1;
	}
	return NULL;
}

void kv_parse(struct kv *kv, const char *text)
{
	memset(kv, 0, sizeof(*kv));
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n'), *colon;
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		colon = memchr(p, ':', len);
		if (colon && colon > p) {
			char *key = trimmed(p, colon - p), *unique = NULL;

			for (int i = 0, again = 2; i < kv->n; i++)
				if (!strcmp(kv->keys[i], unique ? unique : key)) { /* "loadavg at resume" twice */
					free(unique);
					unique = xasprintf("%s (%d)", key, again++);
					i = -1;
				}
			if (unique) {
				free(key);
				key = unique;
			}
			kv->keys = xrealloc(kv->keys, (kv->n + 1) * sizeof(char *));
			kv->values = xrealloc(kv->values, (kv->n + 1) * sizeof(char *));
			kv->keys[kv->n] = key;
			kv->values[kv->n++] = trimmed(colon + 1, len - (colon + 1 - p));
		}
		p = nl ? nl + 1 : p + len;
	}
}

const char *kv_get(const struct kv *kv, const char *key)
{
	for (int i = 0; i < kv->n; i++)
		if (!strcmp(kv->keys[i], key))
			return kv->values[i];
	return NULL;
}

static void add_record(struct provenance *p, int src, const char *kind, const char *value)
{
	struct record *r;

	p->rec[src] = xrealloc(p->rec[src], (p->nrec[src] + 1) * sizeof(struct record));
	r = &p->rec[src][p->nrec[src]++];
	r->kind = xstrdup(kind);
	r->value = xstrdup(value);
}

const char *provenance_value(const struct provenance *p, int src, const char *kind)
{
	for (int i = 0; i < p->nrec[src]; i++)
		if (!strcmp(p->rec[src][i].kind, kind))
			return p->rec[src][i].value;
	return NULL;
}

/* plan.txt: the planner's tab-separated records. What is provenance (the
 * matrix file's path, an rt-app file's host path) or follows from the
 * rest (the interleaved runs, their count, the estimate) is left out. */
static void plan_records(struct provenance *p, const char *text)
{
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *copy = xasprintf("%.*s", (int)len, line), *tab = strchr(copy, '\t');

		line = nl ? nl + 1 : line + len;
		if (!tab) {
			free(copy);
			continue;
		}
		*tab = '\0';
		if (!strcmp(copy, "matrix") || !strcmp(copy, "run") || !strcmp(copy, "runs") ||
		    !strcmp(copy, "estimate_s")) {
			free(copy);
			continue;
		}
		if (!strcmp(copy, "file")) { /* TEXT HOSTPATH GUESTNAME: the content, not the path */
			char *host = strchr(tab + 1, '\t'), *guest = host ? strchr(host + 1, '\t') : NULL;

			if (guest) {
				char *rel = xasprintf("files/%s", guest + 1);
				size_t flen;
				char *path = xasprintf("%s/%s", p->dir, rel);
				char *content = read_whole_file(path, &flen);
				char *value = content
					? xasprintf("%.*s %s (content %016llx)", (int)(host - tab - 1), tab + 1,
						    guest + 1, (unsigned long long)hash_bytes(content, flen))
					: xasprintf("%.*s %s (not kept)", (int)(host - tab - 1), tab + 1, guest + 1);

				add_record(p, SRC_PLAN, "file", value);
				free(value);
				free(content);
				free(path);
				free(rel);
			}
			free(copy);
			continue;
		}
		for (char *t = tab + 1; *t; t++)
			if (*t == '\t')
				*t = ' ';
		add_record(p, SRC_PLAN, copy, tab + 1);
		free(copy);
	}
}

/* A matrix file's directives: comments dropped, blanks collapsed. */
static void matrix_records(struct provenance *p, const char *text)
{
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *copy = xasprintf("%.*s", (int)len, line), *hash = strchr(copy, '#');
		char *out = xmalloc(len + 1), *w = out, *word, *save;

		line = nl ? nl + 1 : line + len;
		if (hash)
			*hash = '\0';
		for (word = strtok_r(copy, " \t\r", &save); word; word = strtok_r(NULL, " \t\r", &save))
			w += sprintf(w, "%s%s", w == out ? "" : " ", word);
		*w = '\0';
		if (*out) {
			char *space = strchr(out, ' ');

			if (space)
				*space = '\0';
			add_record(p, SRC_MATRIX, out, space ? space + 1 : "");
		}
		free(out);
		free(copy);
	}
}

static int has_value(char **list, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

/* The distinct non-empty values of a runs.csv column, in order of
 * appearance; 0 when the column is absent. */
int column_values(const struct run_table *t, const char *name, char ***out)
{
	int col = column_index(t, name), n = 0;

	*out = NULL;
	if (col < 0)
		return 0;
	*out = xmalloc(t->nrows * sizeof(char *));
	for (int r = 0; r < t->nrows; r++) {
		const char *v = t->rows[r].text[col];

		if (*v && !has_value(*out, n, v))
			(*out)[n++] = (char *)v;
	}
	return n;
}

static void runs_records(struct provenance *p, const struct run_table *t)
{
	static const char *const columns[] = { "topology", "workload" };
	char **values;
	int n;

	for (int i = 0; i < 2; i++) {
		n = column_values(t, columns[i], &values);
		for (int v = 0; v < n; v++)
			add_record(p, SRC_RUNS, columns[i], values[v]);
		free(values);
	}
	n = column_values(t, "combo", &values);
	for (int v = 0; v < n; v++)
		for (int r = 0; r < t->nrows; r++)
			if (!strcmp(t->rows[r].text[t->col_combo], values[v])) {
				char *rec = xasprintf("%s %s", values[v], t->rows[r].text[t->col_features]);

				add_record(p, SRC_RUNS, "combo", rec);
				free(rec);
				break;
			}
	free(values);
}

/* "10s", "500ms", "2" (seconds) -> seconds; NaN when not a duration. */
static double parse_duration(const char *s)
{
	static const struct { const char *suffix; double scale; } units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 }, { "", 1 },
	};
	char *end;
	double v;

	if (!s)
		return NAN;
	v = strtod(s, &end);
	if (end == s)
		return NAN;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].suffix))
			return v * units[i].scale;
	return NAN;
}

void column_summary(const struct run_table *t, const char *name, struct column_stats *out)
{
	int col = column_index(t, name);
	double *v, sum = 0;

	memset(out, 0, sizeof(*out));
	out->min = out->median = out->max = out->mean = NAN;
	if (col < 0 || !t->is_numeric[col])
		return;
	v = xmalloc(t->nrows * sizeof(double));
	for (int r = 0; r < t->nrows; r++)
		if (!isnan(t->rows[r].value[col]))
			sum += v[out->n++] = t->rows[r].value[col];
	if (out->n) {
		sort_doubles(v, out->n);
		out->min = v[0];
		out->median = quantile_sorted(v, out->n, 0.5);
		out->max = v[out->n - 1];
		out->mean = sum / out->n;
	}
	free(v);
}

struct provenance *read_provenance(const char *dir, const struct run_table *t)
{
	struct provenance *p = xcalloc(1, sizeof(*p));
	char *text, *plan;
	DIR *d;
	struct dirent *e;

	p->dir = xstrdup(dir);
	p->runs_csv = t->path;
	/* the matrix file as run: the one *.matrix of the folder (the first
	 * by name when there are several) */
	if ((d = opendir(dir))) {
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);

			if (len > 7 && !strcmp(e->d_name + len - 7, ".matrix") &&
			    (!p->matrix_file || strcmp(e->d_name, p->matrix_file) < 0)) {
				free(p->matrix_file);
				p->matrix_file = xstrdup(e->d_name);
			}
		}
		closedir(d);
	}
	if (p->matrix_file && (text = file_in(dir, p->matrix_file))) {
		matrix_records(p, text);
		p->have[SRC_MATRIX] = 1;
		free(text);
	}
	if ((plan = file_in(dir, "plan.txt"))) {
		plan_records(p, plan);
		p->have[SRC_PLAN] = p->nrec[SRC_PLAN] > 0;
		free(plan);
	}
	runs_records(p, t);
	p->have[SRC_RUNS] = 1;

	p->name = provenance_value(p, SRC_PLAN, "name");
	if (!p->name)
		p->name = provenance_value(p, SRC_MATRIX, "name");
	if ((text = file_in(dir, "seed.txt")))
		p->seed = line_of(text, 1);
	free(text);
	if (!p->seed && provenance_value(p, SRC_PLAN, "seed"))
		p->seed = xstrdup(provenance_value(p, SRC_PLAN, "seed"));
	if (!p->seed && provenance_value(p, SRC_MATRIX, "seed"))
		p->seed = xstrdup(provenance_value(p, SRC_MATRIX, "seed"));
	p->duration_s = provenance_value(p, SRC_PLAN, "duration_ms")
		? parse_duration(provenance_value(p, SRC_PLAN, "duration_ms")) / 1000
		: parse_duration(provenance_value(p, SRC_MATRIX, "duration"));
	p->settle_s = provenance_value(p, SRC_PLAN, "settle_ms")
		? parse_duration(provenance_value(p, SRC_PLAN, "settle_ms")) / 1000
		: parse_duration(provenance_value(p, SRC_MATRIX, "settle"));
	if ((text = file_in(dir, "kernel.txt"))) {
		p->kernel_path = line_of(text, 1);
		p->kernel_sha = line_of(text, 2);
		free(text);
	}
	if ((text = file_in(dir, "image.txt"))) {
		p->image_path = line_of(text, 1);
		p->image_sha = line_of(text, 2);
		free(text);
	}
	p->n_kernel_shas = column_values(t, "kernel_sha256", &p->kernel_shas);
	p->n_image_shas = column_values(t, "image_sha256", &p->image_shas);
	if (!p->kernel_sha && p->n_kernel_shas == 1)
		p->kernel_sha = xstrdup(p->kernel_shas[0]);
	if (!p->image_sha && p->n_image_shas == 1)
		p->image_sha = xstrdup(p->image_shas[0]);
	if ((text = file_in(dir, "series-version.txt"))) {
		kv_parse(&p->series, text);
		p->have_series = 1;
		free(text);
	}
	if ((text = file_in(dir, "host.txt"))) {
		kv_parse(&p->host, text);
		p->have_host = 1;
		free(text);
	}
	p->date = kv_get(&p->host, "date");
	p->nboots = column_values(t, "boot", &p->boots);
	if (!p->nboots) { /* no boot column: one boot */
		p->boots = NULL;
		p->nboots = 1;
	}
	column_summary(t, "host_load1", &p->host_load1);
	column_summary(t, "host_cpu_busy", &p->host_cpu_busy);
	return p;
}

/* The provenance of DIR_OR_CSV's runs: its folder, or the folder holding
 * the runs.csv file given. */
char *provenance_dir(const char *csv_path)
{
	const char *slash = strrchr(csv_path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == csv_path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - csv_path), csv_path);
}

/* The matrix's declared comparisons: compare records of DIR/plan.txt (the
 * planner's, "compare TAB A TAB B"); without a plan.txt, "compare A B"
 * lines of the .matrix file in DIR. */
int read_declared(const char *dir, struct declared **out)
{
	char *path = xasprintf("%s/plan.txt", dir), *text = read_whole_file(path, NULL);
	int n = 0, cap = 0, from_matrix = 0;
	const char *sep = "\t";

	free(path);
	*out = NULL;
	if (!text) {
		DIR *dh = opendir(dir);
		struct dirent *e;

		while (dh && (e = readdir(dh)) && !text) {
			size_t len = strlen(e->d_name);

			if (len > 7 && !strcmp(e->d_name + len - 7, ".matrix")) {
				path = xasprintf("%s/%s", dir, e->d_name);
				text = read_whole_file(path, NULL);
				free(path);
			}
		}
		if (dh)
			closedir(dh);
		from_matrix = 1;
		sep = " \t\r";
	}
	if (!text)
		return 0;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *hash = from_matrix ? strchr(line, '#') : NULL, *ws, *kind, *a, *b;

		if (hash)
			*hash = 0;
		kind = strtok_r(line, sep, &ws);
		if (!kind || strcmp(kind, "compare"))
			continue;
		a = strtok_r(NULL, sep, &ws);
		b = strtok_r(NULL, sep, &ws);
		if (!a || !b)
			continue;
		if (n == cap)
			*out = xrealloc(*out, (cap = cap ? 2 * cap : 8) * sizeof(**out));
		(*out)[n].combo = xstrdup(a);
		(*out)[n++].reference = xstrdup(b);
	}
	free(text);
	return n;
}
