/* runs.csv reader: RFC 4180 quoting, strict about shape and numbers, so a
 * broken file stops the analysis with FILE:LINE instead of skewing it. */
#include "pjt-stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The columns the contract guarantees; the rest of INTERFACES.md's columns
 * are used when present (their charts are skipped when absent). */
static const char *const required_columns[] = {
	"seq", "topology", "combo", "features", "workload", "rep",
	"duration_s", "lb_pulls_idle", "lb_pulls_busy", "lb_pulls_newidle",
	"alb_pushed", "ttwu_move_affine", "migrations", "records_per_s",
	"rate_fraction", "wakeup_p50_us", "wakeup_p99_us", "status",
};

struct record {
	int line;
	int nfields;
	char **fields;
};

struct cursor {
	const char *path;
	const char *p, *end;
	int line;
};

/* Reads one record; returns 0 at end of input. */
static int next_record(struct cursor *c, struct record *rec)
{
	int cap = 16;
	size_t fcap = 64, flen;
	char *field;

	while (c->p < c->end && (*c->p == '\n' || (*c->p == '\r' && c->p + 1 < c->end && c->p[1] == '\n'))) {
		c->p += *c->p == '\r' ? 2 : 1; /* blank lines carry no data */
		c->line++;
	}
	if (c->p >= c->end)
		return 0;
	rec->line = c->line;
	rec->nfields = 0;
	rec->fields = xmalloc(cap * sizeof(char *));
	for (;;) {
		int quoted = 0;

		field = xmalloc(fcap);
		flen = 0;
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
			if (flen + 2 > fcap)
				field = xrealloc(field, fcap *= 2);
			field[flen++] = ch;
			c->p++;
		}
		if (quoted == 1)
			die_input("%s:%d: unterminated quoted field", c->path, rec->line);
		if (quoted == 2 && c->p < c->end && *c->p != ',' && *c->p != '\n' && *c->p != '\r')
			die_input("%s:%d: text after a closing quote", c->path, c->line);
		field[flen] = '\0';
		if (rec->nfields == cap)
			rec->fields = xrealloc(rec->fields, (cap *= 2) * sizeof(char *));
		rec->fields[rec->nfields++] = field;
		if (c->p < c->end && *c->p == ',') {
			c->p++;
			continue;
		}
		if (c->p < c->end && *c->p == '\r')
			c->p++;
		if (c->p < c->end && *c->p == '\n')
			c->p++;
		c->line++;
		return 1;
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

	if (!*s)
		return 0;
	*out = strtod(s, &end);
	return *end == '\0' && isfinite(*out);
}

struct run_table *read_runs(const char *path)
{
	struct run_table *t = xcalloc(1, sizeof(*t));
	size_t len;
	char *data = read_whole_file(path, &len);
	struct cursor c = { path, data, data + (data ? len : 0), 1 };
	struct record header, rec;
	int duration_col, cap = 64;
	size_t i;

	if (!data)
		die_system("cannot read %s", path);
	if (memchr(data, '\0', len))
		die_input("%s:1: binary data, not a CSV file", path);
	t->path = xstrdup(path);
	if (!next_record(&c, &header))
		die_input("%s:1: empty file (no header line)", path);
	t->ncols = header.nfields;
	t->names = header.fields;
	for (int j = 0; j < t->ncols; j++)
		for (int k = 0; k < j; k++)
			if (!strcmp(t->names[j], t->names[k]))
				die_input("%s:%d: column '%s' appears twice", path, header.line, t->names[j]);
	for (i = 0; i < sizeof(required_columns) / sizeof(required_columns[0]); i++)
		if (column_index(t, required_columns[i]) < 0)
			die_input("%s:%d: missing required column '%s'", path, header.line,
				  required_columns[i]);
	t->col_seq = column_index(t, "seq");
	t->col_topology = column_index(t, "topology");
	t->col_combo = column_index(t, "combo");
	t->col_features = column_index(t, "features");
	t->col_workload = column_index(t, "workload");
	t->col_rep = column_index(t, "rep");
	t->col_status = column_index(t, "status");
	duration_col = column_index(t, "duration_s");
	t->is_metric = xcalloc(t->ncols, sizeof(int));
	for (int j = duration_col; j < t->ncols; j++)
		t->is_metric[j] = j != t->col_status;

	t->rows = xmalloc(cap * sizeof(struct run_row));
	while (next_record(&c, &rec)) {
		struct run_row *row;
		const char *status;

		if (rec.nfields != t->ncols)
			die_input("%s:%d: %d fields, the header has %d", path, rec.line,
				  rec.nfields, t->ncols);
		if (t->nrows == cap)
			t->rows = xrealloc(t->rows, (cap *= 2) * sizeof(struct run_row));
		row = &t->rows[t->nrows++];
		row->line = rec.line;
		row->text = rec.fields;
		row->value = xmalloc(t->ncols * sizeof(double));
		for (int j = 0; j < t->ncols; j++) {
			row->value[j] = NAN;
			if (t->is_metric[j] || j == t->col_seq || j == t->col_rep) {
				if (!*rec.fields[j] && !t->is_metric[j])
					die_input("%s:%d: column '%s' is empty", path, rec.line, t->names[j]);
				if (*rec.fields[j] && !parse_number(rec.fields[j], &row->value[j]))
					die_input("%s:%d: column '%s': '%s' is not a number", path,
						  rec.line, t->names[j], rec.fields[j]);
			}
		}
		if (!*rec.fields[t->col_topology] || !*rec.fields[t->col_combo] ||
		    !*rec.fields[t->col_features] || !*rec.fields[t->col_workload])
			die_input("%s:%d: topology, combo, features and workload must not be empty",
				  path, rec.line);
		status = rec.fields[t->col_status];
		if (!strcmp(status, "ok"))
			row->status = RUN_OK;
		else if (!strcmp(status, "failed"))
			row->status = RUN_FAILED;
		else if (!strcmp(status, "crashed"))
			row->status = RUN_CRASHED;
		else
			die_input("%s:%d: column 'status': '%s' is not ok, failed or crashed",
				  path, rec.line, status);
	}
	if (!t->nrows)
		die_input("%s:%d: no runs after the header", path, c.line);
	free(data);
	return t;
}
