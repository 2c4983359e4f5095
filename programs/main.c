/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex: command-line front end of libminex (docs/guide/cli.md). Dispatches to
 * one function per subcommand. */
#include "tool.h"

#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  int (*fn)(int, char **);
  const char *summary;
} commands[] = {
    {"repart", cmd_repart, "repartition a graph (MinEX), print before/after"},
    {"eval", cmd_eval, "score a new partition against an old one"},
    {"mesh2dual", cmd_mesh2dual, "dual graph of a mesh (Gmsh, MEDIT, VTK)"},
    {"partition", cmd_partition,
     "initial partition of a mesh or graph (RCB, RIB, Scotch)"},
    {"info", cmd_info, "validate a graph and print its statistics"},
    {"gen", cmd_gen, "synthetic tetrahedral box with a refined ball"},
    {"sim", cmd_sim, "adaptive-mesh simulation: MinEX between adaptations"},
    {"sweep", cmd_sweep, "the paper's parameter studies (Tables 1-4)"},
    {"drum", cmd_drum,
     "resource model: probe this node, slowdowns from a model"},
};

static void usage(FILE *fp) {
  fprintf(fp, "Usage: minex COMMAND [OPTIONS] [ARGS]\n"
              "       minex COMMAND --help\n"
              "       minex --help | --version\n"
              "\n"
              "MinEX: latency-tolerant diffusive repartitioning of adaptive "
              "meshes\non heterogeneous clusters.\n\nCommands:\n");
  for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
    fprintf(fp, "  %-10s %s\n", commands[k].name, commands[k].summary);
  fprintf(fp, "\nExit status: 0 success, 1 failure (the message names the "
              "file and line),\n2 bad command line. See docs/guide/cli.md.\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return TOOL_EXIT_USAGE;
  }
  const char *c = argv[1];
  if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 ||
      strcmp(c, "help") == 0) {
    usage(stdout);
    return TOOL_EXIT_OK;
  }
  if (strcmp(c, "--version") == 0 || strcmp(c, "-V") == 0) {
    printf("minex %s\n", MINEX_VERSION_STRING);
    return TOOL_EXIT_OK;
  }
  for (size_t k = 0; k < sizeof commands / sizeof commands[0]; k++)
    if (strcmp(c, commands[k].name) == 0)
      return commands[k].fn(argc - 1, argv + 1);
  fprintf(stderr, "minex: unknown command '%s'\n\n", c);
  usage(stderr);
  return TOOL_EXIT_USAGE;
}
