/* runs.csv reader: RFC 4180 quoting, strict about shape and numbers, so a
 * broken file stops the analysis with FILE:LINE instead of skewing it.
 * Columns are found by name in the header, never by position; the file is
 * parsed in place (one buffer, one pointer per cell), so 100,000 rows cost
 * a few tens of MB. */
#include "pjt-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The columns the contract guarantees. */
static const char *const required_columns[] = {
	"seq", "topology", "combo", "features", "workload", "rep",
	"duration_s", "lb_pulls_idle", "lb_pulls_busy", "lb_pulls_newidle",
	"alb_pushed", "ttwu_move_affine", "migrations", "records_per_s",
	"rate_fraction", "wakeup_p50_us", "wakeup_p99_us", "status",
};

/* Measurements of INTERFACES.md; all must be numbers >= 0 (or empty). */
static const char *const known_metrics[] = {
	"duration_s", "lb_pulls_idle", "lb_pulls_busy", "lb_pulls_newidle", "alb_pushed",
	"ttwu_wake_remote", "ttwu_move_affine", "migrations", "nr_migrations",
	"records_per_s", "rate_fraction", "periods", "overruns", "wakeup_p50_us",
	"wakeup_p90_us", "wakeup_p99_us", "wakeup_p999_us", "wakeup_max_us", "ops_per_s",
	"wakeup_min_us", "wakeup_avg_us", "slack_p10_us", "slack_p50_us",
};

/* Columns that describe a run rather than measure it. host_* and state_*
 * are numbers (the host's load, the scheduler's state), kept out of the
 * metrics; host, shard and shard_boot are run/merge's provenance of a
 * merged runs.csv. */
static const char *const text_columns[] = {
	"seq", "topology", "combo", "features", "workload", "rep", "status", "boot",
	"kernel_sha256", "image_sha256", "host", "shard", "shard_boot",
};

static int in_list(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}
#define IN(name, list) in_list(name, list, sizeof(list) / sizeof(list[0]))

static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/* Scheduler state the guest reads at the end of a run (run/contract/columns'
 * state_* columns: the drift's candidates): numbers, not measurements of the
 * run, so kept out of the metrics like host_*; run/stats --drift gives their
 * slopes. */
int is_state_column(const char *name)
{
	return !strncmp(name, "state_", 6);
}

/* Event counts: whole numbers, decimal only. */
int is_count_column(const char *name)
{
	return !strncmp(name, "lb_", 3) || !strncmp(name, "alb_", 4) || !strncmp(name, "ttwu_", 5) ||
	       !strcmp(name, "migrations") || !strcmp(name, "nr_migrations") ||
	       !strcmp(name, "overruns") || !strcmp(name, "periods") ||
	       ends_with(name, "_evaluated") || ends_with(name, "_differed") ||
	       ends_with(name, "_applied");
}

struct cursor {
	const char *path;
	char *p, *end;
	int line;
};

/* Reads one record into fields (pointers into the buffer, unquoted in
 * place and NUL-terminated); returns the field count, 0 at end of input. */
static int next_record(struct cursor *c, char ***fields, int *cap, int *start_line)
{
	int n = 0;

	while (c->p < c->end && (*c->p == '\n' || (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n'))) {
		c->p += *c->p == '\r' ? 2 : 1; /* blank lines carry no data */
		c->line++;
	}
	if (c->p >= c->end)
		return 0;
	*start_line = c->line;
	for (;;) {
		char *w = c->p, *field = c->p, next;
		int quoted = 0;

		if (c->p < c->end && *c->p == '"') {
			quoted = 1;
			c->p++;
		}
		while (c->p < c->end) {
			char ch = *c->p;

			if (quoted) {
				if (ch == '"') {
					if (c->p + 1 < c->end && c->p[1] == '"') {
						c->p++;
					} else {
						c->p++;
						quoted = 2; /* closed */
						break;
					}
				} else if (ch == '\n') {
					c->line++;
				}
			} else if (ch == ',' || ch == '\n' || ch == '\r') {
				break;
			} else if (ch == '"') {
				die_input("%s:%d: stray quote inside an unquoted field", c->path, c->line);
			}
			*w++ = ch;
			c->p++;
		}
		if (quoted == 1)
			die_input("%s:%d: unterminated quoted field", c->path, *start_line);
		next = c->p < c->end ? *c->p : '\n';
		if (quoted == 2 && next != ',' && next != '\n' && next != '\r')
			die_input("%s:%d: text after a closing quote", c->path, c->line);
		*w = '\0'; /* w <= p: the delimiter was read into next first */
		if (n == *cap)
			*fields = xrealloc(*fields, (*cap = *cap ? 2 * *cap : 64) * sizeof(char *));
		(*fields)[n++] = field;
		if (next == ',') {
			c->p++;
			continue;
		}
		/* the delimiter may be overwritten by the NUL: go by next */
		if (c->p < c->end && next == '\r') {
			c->p++;
			if (c->p < c->end && *c->p == '\n')
				c->p++;
		} else if (c->p < c->end) {
			c->p++; /* '\n' */
		}
		c->line++;
		return n;
	}
}

int column_index(const struct run_table *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (!strcmp(t->names[i], name))
			return i;
	return -1;
}

static int parse_number(const char *s, double *out)
{
	char *end;

	if (!*s || strpbrk(s, "xXpP \t") || !strchr("0123456789+-.", *s))
		return 0; /* no hex, no spaces, no "inf"/"nan" */
	*out = strtod(s, &end);
	return *end == '\0' && isfinite(*out);
}

static int parse_count(const char *s, double *out)
{
	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 15)
		return 0;
	*out = strtod(s, NULL);
	return 1;
}

/* A positive whole number, for seq and rep. */
static long parse_index(const struct run_table *t, int line, int col, const char *s)
{
	double v;

	if (!*s)
		die_input("%s:%d: column '%s' is empty", t->path, line, t->names[col]);
	if (!parse_count(s, &v) || v < 1)
		die_input("%s:%d: column '%s': '%s' is not a whole number >= 1", t->path, line,
			  t->names[col], s);
	return (long)v;
}

static void classify_columns(struct run_table *t, char **cells)
{
	t->is_metric = xcalloc(t->ncols, sizeof(int));
	t->is_numeric = xcalloc(t->ncols, sizeof(int));
	for (int j = 0; j < t->ncols; j++) {
		const char *name = t->names[j];
		int numeric = 1;

		if (IN(name, text_columns))
			continue;
		if (IN(name, known_metrics) || is_count_column(name)) {
			t->is_metric[j] = t->is_numeric[j] = 1;
			continue;
		}
		/* host_* and columns this version does not know: numbers when
		 * every cell is one (unknown ones are then metrics), else text */
		for (int r = 0; r < t->nrows && numeric; r++) {
			double v;
			const char *s = cells[(size_t)r * t->ncols + j];

			numeric = !*s || parse_number(s, &v);
		}
		t->is_numeric[j] = numeric;
		t->is_metric[j] = numeric && strncmp(name, "host_", 5) && !is_state_column(name);
	}
}

/* One kernel and one image per runs.csv, or one per combination (a pool
 * where the kernel is what is compared, as run/bench-overhead makes):
 * runs of one combination on two builds would be pooled as one cell. */
static void one_build(const struct run_table *t, const char *column)
{
	int col = column_index(t, column), first = -1, warned = 0;
	struct strmap combo_row = { 0 };

	if (col < 0)
		return;
	for (int r = 0; r < t->nrows; r++) {
		const struct run_row *row = &t->rows[r];
		const char *v = row->text[col];
		int prev;

		if (!*v)
			continue;
		if (first < 0)
			first = r;
		if (!warned && strcmp(t->rows[first].text[col], v)) {
			/* a pool of builds is fine, a ratio across it is not only the bits */
			fprintf(stderr, "pjt-stats: warning: %s:%d: combo '%s' ran %s %.12s..., combo '%s' (line %d) %.12s...: a ratio between combinations of two builds measures the builds as well as the bits\n",
				t->path, row->line, row->text[t->col_combo], column, v,
				t->rows[first].text[t->col_combo], t->rows[first].line, t->rows[first].text[col]);
			warned = 1;
		}
		prev = map_get(&combo_row, row->text[t->col_combo]);
		if (prev < 0) {
			map_put(&combo_row, row->text[t->col_combo], r);
			continue;
		}
		if (strcmp(t->rows[prev].text[col], v))
			die_input("%s:%d: more than one %s (%.12s... here, %.12s... at line %d) for combo '%s': runs of two builds are not one cell; analyse each results folder on its own (run/compare compares them)",
				  t->path, row->line, column, v, t->rows[prev].text[col],
				  t->rows[prev].line, row->text[t->col_combo]);
	}
	map_free(&combo_row);
}

static int compare_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* A boot equal to another in every run (each cell's every measurement),
 * under another boot number and seqs, did not happen twice: it is one
 * boot pasted in twice, and would count as evidence twice. Each boot's
 * signature is its sorted run hashes (seq, boot and rep left out). When
 * every boot is alike (a fake boot's constant answers) equality is the
 * data's nature: only a pair among boots that differ is a copy. */
static void no_pasted_boot(const struct run_table *t)
{
	struct strmap boots = { 0 };
	int nb = 0, *count = xcalloc(t->nrows + 1, sizeof(int)), *first = xmalloc((t->nrows + 1) * sizeof(int));
	int *row_boot = xmalloc((t->nrows + 1) * sizeof(int));
	uint64_t *hash = xmalloc((t->nrows + 1) * sizeof(uint64_t)), *sig;

	for (int r = 0; r < t->nrows; r++) {
		const struct run_row *row = &t->rows[r];
		int b = map_get(&boots, row->boot);
		uint64_t h = UINT64_C(0xcbf29ce484222325);

		if (b < 0) {
			map_put(&boots, row->boot, b = nb++);
			first[b] = r;
		}
		row_boot[r] = b;
		count[b]++;
		for (int j = 0; j < t->ncols; j++)
			if (j != t->col_seq && j != t->col_boot && j != t->col_rep &&
			    (t->is_metric[j] || j == t->col_topology || j == t->col_workload || j == t->col_combo ||
			     j == t->col_status))
				h = (h ^ hash_bytes(row->text[j], strlen(row->text[j]))) * UINT64_C(0x100000001b3);
		hash[r] = h;
	}
	sig = xcalloc(nb + 1, sizeof(uint64_t));
	for (int b = 0; b < nb; b++) {
		uint64_t *mine = xmalloc((count[b] + 1) * sizeof(uint64_t));
		int k = 0;

		for (int r = 0; r < t->nrows; r++)
			if (row_boot[r] == b)
				mine[k++] = hash[r];
		qsort(mine, k, sizeof(uint64_t), compare_u64);
		sig[b] = hash_bytes((const char *)mine, k * sizeof(uint64_t));
		free(mine);
	}
	for (int b = 0; b < nb; b++) {
		int varies = 0;

		for (int x = 0; x < nb; x++)
			varies |= sig[x] != sig[b];
		for (int o = 0; o < b && varies; o++)
			if (count[b] >= 2 && count[o] == count[b] && sig[o] == sig[b])
				die_input("%s:%d: boot %s repeats boot %s (from line %d) run for run, every measurement equal: one boot pasted in twice? remove the copy",
					  t->path, t->rows[first[b]].line, t->rows[first[b]].boot,
					  t->rows[first[o]].boot, t->rows[first[o]].line);
	}
	map_free(&boots);
	free(sig);
	free(hash);
	free(row_boot);
	free(first);
	free(count);
}

struct run_table *read_runs(const char *path)
{
	struct run_table *t = xcalloc(1, sizeof(*t));
	size_t len;
	char *data = read_whole_file(path, &len);
	struct cursor c = { path, data, data + (data ? len : 0), 1 };
	char **fields = NULL, **cells;
	int fcap = 0, nf, line, cap = 1024, *lines;
	struct strmap seqs = { 0 };
	size_t i;

	if (!data)
		die_system("cannot read %s", path);
	if (memchr(data, '\0', len))
		die_input("%s:1: binary data, not a CSV file", path);
	t->path = xstrdup(path);
	t->data = data;
	if (!(nf = next_record(&c, &fields, &fcap, &line)))
		die_input("%s:1: empty file (no header line)", path);
	t->ncols = nf;
	t->names = xmalloc(nf * sizeof(char *));
	memcpy(t->names, fields, nf * sizeof(char *));
	for (int j = 0; j < t->ncols; j++)
		for (int k = 0; k < j; k++)
			if (!strcmp(t->names[j], t->names[k]))
				die_input("%s:%d: column '%s' appears twice", path, line, t->names[j]);
	for (i = 0; i < sizeof(required_columns) / sizeof(required_columns[0]); i++)
		if (column_index(t, required_columns[i]) < 0)
			die_input("%s:%d: missing required column '%s'", path, line,
				  required_columns[i]);
	t->col_seq = column_index(t, "seq");
	t->col_topology = column_index(t, "topology");
	t->col_combo = column_index(t, "combo");
	t->col_features = column_index(t, "features");
	t->col_workload = column_index(t, "workload");
	t->col_rep = column_index(t, "rep");
	t->col_status = column_index(t, "status");
	t->col_boot = column_index(t, "boot");

	cells = xmalloc((size_t)cap * t->ncols * sizeof(char *));
	lines = xmalloc(cap * sizeof(int));
	while ((nf = next_record(&c, &fields, &fcap, &line))) {
		if (nf != t->ncols)
			die_input("%s:%d: %d fields, the header has %d", path, line, nf, t->ncols);
		if (t->nrows == cap) {
			cap *= 2;
			cells = xrealloc(cells, (size_t)cap * t->ncols * sizeof(char *));
			lines = xrealloc(lines, cap * sizeof(int));
		}
		memcpy(cells + (size_t)t->nrows * t->ncols, fields, t->ncols * sizeof(char *));
		lines[t->nrows++] = line;
	}
	free(fields);
	if (!t->nrows)
		die_input("%s:%d: no runs after the header", path, c.line);
	classify_columns(t, cells);
	t->cells = cells;
	t->values = xmalloc((size_t)t->nrows * t->ncols * sizeof(double));
	t->rows = xmalloc(t->nrows * sizeof(struct run_row));
	for (int r = 0; r < t->nrows; r++) {
		struct run_row *row = &t->rows[r];
		const char *status;
		int prev;

		row->line = lines[r];
		row->text = cells + (size_t)r * t->ncols;
		row->value = t->values + (size_t)r * t->ncols;
		for (int j = 0; j < t->ncols; j++) {
			const char *s = row->text[j];

			row->value[j] = NAN;
			if (!t->is_numeric[j] || !*s)
				continue;
			if (is_count_column(t->names[j]) && t->is_metric[j]) {
				if (!parse_count(s, &row->value[j]))
					die_input("%s:%d: column '%s': '%s' is not a count (a whole decimal number >= 0)",
						  path, row->line, t->names[j], s);
			} else if (!parse_number(s, &row->value[j])) {
				die_input("%s:%d: column '%s': '%s' is not a number", path,
					  row->line, t->names[j], s);
			} else if (row->value[j] < 0 && t->is_metric[j]) {
				die_input("%s:%d: column '%s': '%s' is negative", path, row->line,
					  t->names[j], s);
			}
		}
		parse_index(t, row->line, t->col_seq, row->text[t->col_seq]);
		row->rep = parse_index(t, row->line, t->col_rep, row->text[t->col_rep]);
		if ((prev = map_get(&seqs, row->text[t->col_seq])) >= 0)
			die_input("%s:%d: seq %s appears again (first at line %d): a duplicated row",
				  path, row->line, row->text[t->col_seq], t->rows[prev].line);
		map_put(&seqs, row->text[t->col_seq], r);
		if (!*row->text[t->col_topology] || !*row->text[t->col_combo] ||
		    !*row->text[t->col_features] || !*row->text[t->col_workload])
			die_input("%s:%d: topology, combo, features and workload must not be empty",
				  path, row->line);
		if (t->col_boot >= 0 && !*row->text[t->col_boot])
			die_input("%s:%d: column 'boot' is empty", path, row->line);
		/* a number: "01" and "1" are one boot */
		row->boot = t->col_boot >= 0
			? xasprintf("%ld", parse_index(t, row->line, t->col_boot, row->text[t->col_boot]))
			: "1";
		status = row->text[t->col_status];
		if (!strcmp(status, "ok"))
			row->status = RUN_OK;
		else if (!strcmp(status, "failed"))
			row->status = RUN_FAILED;
		else if (!strcmp(status, "crashed"))
			row->status = RUN_CRASHED;
		else
			die_input("%s:%d: column 'status': '%s' is not ok, failed or crashed",
				  path, row->line, status);
	}
	map_free(&seqs);
	free(lines);
	one_build(t, "kernel_sha256");
	one_build(t, "image_sha256");
	no_pasted_boot(t);
	return t;
}
