/** The proposal card's context (pure: tested and screenshotted without Foundry). See src/core/proposals.ts. */
export type Localize = (key: string, data?: Record<string, string | number>) => string;

export interface ProposalCardInput {
  /** Lang key of the kind's title. */
  title: string;
  proposer: string;
  lines: readonly string[];
  status: "pending" | "applying" | "applied" | "declined" | "failed" | "interrupted";
  decidedBy: string;
  outcome: string;
  error: string;
}

export function proposalCardContext(input: ProposalCardInput, l: Localize) {
  return {
    title: l(input.title),
    by: l("AVENTURE.Proposal.by", { name: input.proposer }),
    lines: [...input.lines],
    pending: input.status === "pending",
    status: input.status === "pending" ? "" : l(`AVENTURE.Proposal.status.${input.status}`, { name: input.decidedBy }),
    outcome: input.outcome,
    error: input.error,
    apply: l("AVENTURE.Proposal.apply"),
    decline: l("AVENTURE.Proposal.decline"),
  };
}
