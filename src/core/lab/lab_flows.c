/* SPDX-License-Identifier: BSD-2-Clause */
/* lab_flows.h: the sink's destination ranges. A local route (AnyIP) makes every address of a
 * range the sink's own without one address per flow; the DUT reaches the range through the
 * sink's address (one neighbour, not one per flow), and the generator through the DUT. */
#include "core/lab/lab_flows.h"

#include "core/lab/lab.h"

/* ip -n NS FAM route add local PREFIX dev lo: the range is NS's own. */
static int own(struct nb_lab *lab, const char *ns, const char *fam, const char *pfx)
{
	char *argv[] = {"ip",	 "-n",	      (char *)ns, (char *)fam, "route", "add",
			"local", (char *)pfx, "dev",	  "lo",	       NULL};
	return nb_lab_cmd(lab, argv, NULL, NULL);
}

/* ip -n NS FAM route add PREFIX via GW */
static int via(struct nb_lab *lab, const char *ns, const char *fam, const char *pfx, const char *gw)
{
	char *argv[] = {"ip",  "-n",	    (char *)ns, (char *)fam, "route",
			"add", (char *)pfx, "via",	(char *)gw,  NULL};
	return nb_lab_cmd(lab, argv, NULL, NULL);
}

int nb_lab_flows_up(struct nb_lab *lab)
{
	const char *gen = lab->ns[NB_LAB_GEN], *dut = lab->ns[NB_LAB_DUT],
		   *sink = lab->ns[NB_LAB_SINK];
	int ret;

	if (lab->board.role >= 0)
		return 0;
	/* The generator reaches 198.19.0.0/16 through the DUT already. */
	if ((ret = own(lab, sink, "-4", NB_LAB_FLOWS_DST)) ||
	    (ret = via(lab, dut, "-4", NB_LAB_FLOWS_DST, NB_LAB_SINK_ADDR)))
		return ret;
	if (!lab->ipv6)
		return 0;
	if ((ret = own(lab, sink, "-6", NB_LAB_FLOWS_DST6)) ||
	    (ret = via(lab, dut, "-6", NB_LAB_FLOWS_DST6, NB_LAB_SINK_ADDR6)) ||
	    (ret = via(lab, gen, "-6", NB_LAB_FLOWS_DST6, NB_LAB_DUT_A_ADDR6)))
		return ret;
	return 0;
}
