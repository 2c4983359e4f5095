/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench_mesh: reading a mesh file and building its dual graph, per element
 * kind: about 10^6 tetrahedra (gen_box, the reader of before as
 * the reference), 10^6 hexahedra, and a mixed mesh of about 10^6
 * hexahedra, prisms and pyramids (columns of cubes whole, cut into 2
 * prisms, or into 6 pyramids around the cube's centre: all conforming).
 * Each mesh is written as a Gmsh 4.1 file, ASCII and binary, into a
 * scratch directory, then read and its dual built in a child process of
 * its own, so that the peak RSS printed is that case's. Public API only.
 * Usage: bench_mesh [--scale S] [--dir DIR] [--keep] (S = 1: 10^6
 * elements; --keep leaves the files in DIR). */
#include "minex.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One element block per kind: Gmsh types 4 tet, 5 hex, 6 prism, 7 pyr. */
typedef struct gen_mesh {
  int64_t nnodes;
  double *xyz;
  int64_t count[4];  /* tets, hexes, prisms, pyramids */
  int32_t *nodes[4]; /* 0-based ids */
} gen_mesh;

static const int g_type[4] = {4, 5, 6, 7}, g_nn[4] = {4, 8, 6, 5};

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (p == NULL) {
    fprintf(stderr, "bench_mesh: out of memory\n");
    exit(1);
  }
  return p;
}

/* Cube (i,j,k) corners in VTK hexahedron order. */
static void cube(int64_t n, int64_t i, int64_t j, int64_t k, int32_t c[8]) {
  int64_t s = n + 1;
#define V(a, b, d) (int32_t)(((k + (d)) * s + (j + (b))) * s + (i + (a)))
  c[0] = V(0, 0, 0), c[1] = V(1, 0, 0), c[2] = V(1, 1, 0), c[3] = V(0, 1, 0);
  c[4] = V(0, 0, 1), c[5] = V(1, 0, 1), c[6] = V(1, 1, 1), c[7] = V(0, 1, 1);
#undef V
}

/* mode 0: hexahedra only; 1: columns of hexahedra, prism pairs and six
 * pyramids by (i + j) % 3. */
static void make_grid(int64_t n, int mode, gen_mesh *m) {
  int64_t s = n + 1, corners = s * s * s;
  int64_t ncube = n * n * n, ncentre = mode ? ncube : 0;
  memset(m, 0, sizeof *m);
  m->nnodes = corners + ncentre;
  m->xyz = xmalloc(sizeof(double) * 3 * (size_t)m->nnodes);
  for (int64_t k = 0; k < s; k++)
    for (int64_t j = 0; j < s; j++)
      for (int64_t i = 0; i < s; i++) {
        double *x = m->xyz + 3 * ((k * s + j) * s + i);
        x[0] = (double)i / n, x[1] = (double)j / n, x[2] = (double)k / n;
      }
  m->nodes[1] = xmalloc(sizeof(int32_t) * 8 * (size_t)ncube);
  m->nodes[2] = xmalloc(sizeof(int32_t) * (mode ? 12 : 0) * (size_t)ncube);
  m->nodes[3] = xmalloc(sizeof(int32_t) * (mode ? 30 : 0) * (size_t)ncube);
  for (int64_t k = 0; k < n; k++)
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < n; i++) {
        int32_t c[8];
        cube(n, i, j, k, c);
        int col = mode ? (int)((i + j) % 3) : 0;
        if (col == 0) {
          memcpy(m->nodes[1] + 8 * m->count[1]++, c, sizeof c);
        } else if (col == 1) { /* two prisms, cut along the diagonal 0-2 */
          int32_t a[6] = {c[0], c[1], c[2], c[4], c[5], c[6]};
          int32_t b[6] = {c[0], c[2], c[3], c[4], c[6], c[7]};
          memcpy(m->nodes[2] + 6 * m->count[2]++, a, sizeof a);
          memcpy(m->nodes[2] + 6 * m->count[2]++, b, sizeof b);
        } else { /* six pyramids on the faces, apex at the centre */
          int64_t cid = corners + (k * n + j) * n + i;
          double *x = m->xyz + 3 * cid;
          x[0] = (i + 0.5) / n, x[1] = (j + 0.5) / n, x[2] = (k + 0.5) / n;
          static const int f[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                      {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
          for (int q = 0; q < 6; q++) {
            int32_t *p = m->nodes[3] + 5 * m->count[3]++;
            for (int r = 0; r < 4; r++)
              p[r] = c[f[q][r]];
            p[4] = (int32_t)cid;
          }
        }
      }
  /* centres of non-pyramid cubes are unused nodes: harmless for reading */
}

static void from_mesh(const minex_mesh *mesh, gen_mesh *m) {
  memset(m, 0, sizeof *m);
  m->nnodes = minex_mesh_nnodes(mesh);
  m->xyz = xmalloc(sizeof(double) * 3 * (size_t)m->nnodes);
  memcpy(m->xyz, minex_mesh_coords(mesh), sizeof(double) * 3 * m->nnodes);
  m->count[0] = minex_mesh_nelems(mesh);
  m->nodes[0] = xmalloc(sizeof(int32_t) * 4 * (size_t)m->count[0]);
  memcpy(m->nodes[0], minex_mesh_elems(mesh),
         sizeof(int32_t) * 4 * (size_t)m->count[0]);
}

static void free_gen(gen_mesh *m) {
  free(m->xyz);
  for (int t = 0; t < 4; t++)
    free(m->nodes[t]);
}

/* Gmsh 4.1, one entity (volume 1), one block per kind present. */
static int write_msh(const gen_mesh *m, const char *path, int binary) {
  FILE *fp = fopen(path, "wb");
  if (fp == NULL)
    return -1;
  int64_t ne = 0, nb = 0;
  for (int t = 0; t < 4; t++) {
    ne += m->count[t];
    nb += m->count[t] > 0;
  }
  fprintf(fp, "$MeshFormat\n4.1 %d 8\n", binary);
  if (binary) {
    int one = 1;
    fwrite(&one, sizeof one, 1, fp);
    fputc('\n', fp);
  }
  fprintf(fp, "$EndMeshFormat\n$Nodes\n");
  if (binary) {
    size_t h[4] = {1, (size_t)m->nnodes, 1, (size_t)m->nnodes};
    int bh[3] = {3, 1, 0};
    size_t cnt = (size_t)m->nnodes;
    fwrite(h, sizeof h[0], 4, fp);
    fwrite(bh, sizeof bh[0], 3, fp);
    fwrite(&cnt, sizeof cnt, 1, fp);
    for (int64_t v = 0; v < m->nnodes; v++) {
      size_t tag = (size_t)v + 1;
      fwrite(&tag, sizeof tag, 1, fp);
    }
    fwrite(m->xyz, sizeof(double), 3 * (size_t)m->nnodes, fp);
    fprintf(fp, "\n$EndNodes\n$Elements\n");
    size_t eh[4] = {(size_t)nb, (size_t)ne, 1, (size_t)ne};
    fwrite(eh, sizeof eh[0], 4, fp);
    size_t tag = 1;
    size_t *rec = xmalloc(sizeof(size_t) * 9);
    for (int t = 0; t < 4; t++) {
      if (m->count[t] == 0)
        continue;
      int b[3] = {3, 1, g_type[t]};
      size_t c = (size_t)m->count[t];
      fwrite(b, sizeof b[0], 3, fp);
      fwrite(&c, sizeof c, 1, fp);
      for (int64_t e = 0; e < m->count[t]; e++) {
        rec[0] = tag++;
        for (int i = 0; i < g_nn[t]; i++)
          rec[1 + i] = (size_t)m->nodes[t][g_nn[t] * e + i] + 1;
        fwrite(rec, sizeof(size_t), (size_t)(1 + g_nn[t]), fp);
      }
    }
    free(rec);
    fprintf(fp, "\n$EndElements\n");
  } else {
    fprintf(fp, "1 %" PRId64 " 1 %" PRId64 "\n3 1 0 %" PRId64 "\n", m->nnodes,
            m->nnodes, m->nnodes);
    for (int64_t v = 0; v < m->nnodes; v++)
      fprintf(fp, "%" PRId64 "\n", v + 1);
    for (int64_t v = 0; v < m->nnodes; v++)
      fprintf(fp, "%.17g %.17g %.17g\n", m->xyz[3 * v], m->xyz[3 * v + 1],
              m->xyz[3 * v + 2]);
    fprintf(fp, "$EndNodes\n$Elements\n%" PRId64 " %" PRId64 " 1 %" PRId64 "\n",
            nb, ne, ne);
    int64_t tag = 1;
    for (int t = 0; t < 4; t++) {
      if (m->count[t] == 0)
        continue;
      fprintf(fp, "3 1 %d %" PRId64 "\n", g_type[t], m->count[t]);
      for (int64_t e = 0; e < m->count[t]; e++) {
        fprintf(fp, "%" PRId64, tag++);
        for (int i = 0; i < g_nn[t]; i++)
          fprintf(fp, " %d", (int)m->nodes[t][g_nn[t] * e + i] + 1);
        fputc('\n', fp);
      }
    }
    fprintf(fp, "$EndElements\n");
  }
  return fclose(fp) == 0 ? 0 : -1;
}

/* Child: read + dual, print one row. */
static int run_case(const char *name, const char *path) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    double t0 = wtime();
    minex_mesh *m = NULL;
    int rc = minex_mesh_read(path, &m);
    double t1 = wtime();
    minex_graph *g = NULL;
    if (rc == MINEX_OK)
      rc = minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g);
    double t2 = wtime();
    if (rc != MINEX_OK) {
      fprintf(stderr, "bench_mesh: %s: %s\n", name, minex_last_error());
      _exit(1);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double ne = (double)minex_mesh_nelems(m);
    printf("| %-22s | %9d | %10" PRId64 " | %7.3f | %8.1f | %7.3f | %8.1f | "
           "%7.0f | %8.0f |\n",
           name, (int)minex_mesh_nelems(m), minex_graph_nedges(g), t1 - t0,
           1e9 * (t1 - t0) / ne, t2 - t1, 1e9 * (t2 - t1) / ne,
           ru.ru_maxrss / 1024.0, ru.ru_maxrss * 1024.0 / ne);
    fflush(stdout);
    minex_graph_destroy(g);
    minex_mesh_destroy(m);
    _exit(0);
  }
  int st;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
  double scale = 1.0;
  const char *dir = "/tmp";
  int keep = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--scale") == 0 && i + 1 < argc)
      scale = atof(argv[++i]);
    else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
      dir = argv[++i];
    else if (strcmp(argv[i], "--keep") == 0)
      keep = 1;
    else {
      fprintf(stderr, "Usage: bench_mesh [--scale S] [--dir DIR] [--keep]\n");
      return 2;
    }
  }
  if (!(scale > 0) || scale > 20) {
    fprintf(stderr, "bench_mesh: --scale in (0, 20]\n");
    return 2;
  }
  /* 10^6 elements at scale 1: 55^3 x 6 tets, 100^3 hexes, 69^3 cubes of
     1, 2 or 6 elements (3 on average) */
  int64_t nt = (int64_t)lround(55 * cbrt(scale)),
          nh = (int64_t)lround(100 * cbrt(scale)),
          nm = (int64_t)lround(69 * cbrt(scale));
  if (nt < 1)
    nt = 1;
  if (nh < 1)
    nh = 1;
  if (nm < 1)
    nm = 1;
  struct {
    const char *name;
    int kind; /* 0 tets, 1 hexes, 2 mixed */
  } cases[] = {{"tetrahedra", 0}, {"hexahedra", 1}, {"mixed hex/prism/pyr", 2}};
  printf("| mesh (Gmsh 4.1)        |  elements |  dual edges |  read s "
         "| ns/elem  |  dual s | ns/elem  | RSS MiB | B/elem   |\n"
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  int fail = 0;
  for (int c = 0; c < 3; c++) {
    gen_mesh m;
    if (cases[c].kind == 0) {
      minex_mesh *box = NULL;
      if (minex_gen_box((int32_t)nt, (int32_t)nt, (int32_t)nt, &box) !=
          MINEX_OK) {
        fprintf(stderr, "bench_mesh: %s\n", minex_last_error());
        return 1;
      }
      from_mesh(box, &m);
      minex_mesh_destroy(box);
    } else {
      make_grid(cases[c].kind == 1 ? nh : nm, cases[c].kind == 2, &m);
    }
    for (int bin = 0; bin < 2; bin++) {
      char path[4096], name[64];
      snprintf(path, sizeof path, "%s/bench_mesh_%d_%d_%d.msh", dir, c, bin,
               (int)getpid());
      snprintf(name, sizeof name, "%s, %s", cases[c].name,
               bin ? "binary" : "ASCII");
      if (write_msh(&m, path, bin) != 0) {
        fprintf(stderr, "bench_mesh: cannot write %s\n", path);
        fail = 1;
        continue;
      }
      if (run_case(name, path) != 0)
        fail = 1;
      if (!keep)
        remove(path);
      else
        fprintf(stderr, "kept %s\n", path);
    }
    free_gen(&m);
  }
  return fail;
}
