/**
 * Players propose, GMs dispose (docs/security.md): when a player's request would change what is not theirs (a
 * journey that moves world time, a chase whose pursuers belong to others, observers they name), the active GM does
 * not run it: it posts a GM-only card with the request, checked and stored, and Apply / Decline buttons. A GM's click
 * goes through the trusted channel (request "proposalDecide", GMs only) to the active GM, which runs it once with a
 * GM's authority and tells the player (a card whispered to them).
 *
 * The card is the proposal's state: a ChatMessage of the sub-type `aventure.proposal` (module.json
 * documentTypes.ChatMessage.proposal) whose system is declared by its data model below (card-model.ts), read only from
 * a GM-authored message; a card of an earlier version keeps it in flags.aventure.proposal, read through the same model.
 * Its status goes
 * pending → applying → applied / failed, or pending → declined; "applying" is written before anything runs, with the
 * GM that runs it (operations.ts), so a reload in between leaves "applying", which a GM marks interrupted once that
 * GM is gone (the feature's own card says what was applied; nothing is run twice). While that GM is still connected
 * — it lost the active role to a GM who just connected — it finishes the proposal and tells the player the outcome.
 */
import { template } from "./constants.js";
import { isRulesError } from "../rules/errors.js";
import { authoredByGM, wireButtons, registerCardPart } from "./cards.js";
import {
  cardData,
  cardDeletion,
  cardState,
  cardUpdate,
  choiceField,
  executorField,
  idField,
  registerCard,
  versionField,
  type CardData,
  type CardKind,
} from "./card-model.js";
import { gmIds } from "./chat.js";
import { renderTemplateCompat } from "./compat.js";
import { isActiveGM } from "./gm.js";
import { errorMessage, escapeHtml, t, UserError } from "./i18n.js";
import {
  claimFirst,
  execute,
  executorStamp,
  readClaims,
  registerRecovery,
  resume,
  staleOwnClaims,
  type Executor,
  type ReadBack,
  type StepGuard,
} from "./operations.js";
import { registerRequest, sendRequest } from "./requests.js";
import { proposalCardContext } from "./proposal-context.js";
import { isDocumentId } from "./values.js";
import { flagModel, type Fields } from "./flag-model.js";

export interface ProposalKind {
  /** The feature's name: "travel", "pursuit", "hide"... */
  kind: string;
  /** Lang key of the card's title. */
  title: string;
  /** Checks the stored request again (documents may have gone since) and describes it in a few lines (plain text). */
  describe(data: unknown): string[] | Promise<string[]>;
  /**
   * Runs the request with a GM's authority, on the GM that executes the proposal. Returns a short plain-text outcome
   * for the cards. `guard`: the proposal's executor check (operations.ts), to check before every write — in place of
   * an active-GM check: the GM that started applying a proposal finishes it even when another GM has since become the
   * active GM, and stops, writing nothing more, once the proposal is no longer its own.
   */
  apply(data: unknown, context: ProposalApplyContext): Promise<string>;
}

/** What a kind's apply gets besides the stored request. */
export interface ProposalApplyContext {
  proposer: User | null;
  decidedBy: User;
  guard: StepGuard;
}

export type ProposalStatus = "pending" | "applying" | "applied" | "declined" | "failed" | "interrupted";

const kinds = new Map<string, ProposalKind>();
const STATUSES: readonly ProposalStatus[] = ["pending", "applying", "applied", "declined", "failed", "interrupted"];

/** A text set when the proposal is decided (null until then). */
const laterText = (f: Fields) =>
  new f.StringField({ required: true, blank: true, nullable: true, trim: false, initial: null });

/** The proposal card's state: the values not set yet are null, the claims an object. */
export const proposalSchema = (f: Fields) => ({
  v: versionField(1),
  // One of the kinds registered (in init); the stored request is that kind's, checked again when described.
  kind: new f.StringField({ required: true, blank: false, validate: (v: unknown) => kinds.has(v as string) }),
  data: new f.AnyField({ required: true }),
  proposer: idField(),
  status: choiceField(STATUSES),
  lines: new f.ArrayField(new f.StringField({ required: true, blank: true, trim: false }), {
    required: true,
    initial: [],
    max: 1000,
  }),
  decidedBy: idField(true),
  outcome: laterText(f),
  error: laterText(f),
  /** The GM (user and page load) that applies it, recorded with "applying". */
  executor: executorField(),
  /**
   * The decisions claimed on it: page load → the GM user deciding (operations.ts claimFirst); withdrawn by deletion.
   */
  claims: new f.TypedObjectField(idField(), {
    required: true,
    initial: {},
    validateKey: (k: string) => isDocumentId(k),
  }),
});
export type ProposalFlag = CardData<typeof proposalSchema>;

export function registerProposalKind(kind: ProposalKind): void {
  if (kinds.has(kind.kind)) throw new Error(`aventure | proposal kind ${kind.kind} registered twice`);
  kinds.set(kind.kind, kind);
}

export const PROPOSAL_CARD: CardKind = { kind: "proposal", legacyFlag: "proposal" };

/** Registers the proposal card's sub-type (init). */
function registerProposalCard(): void {
  registerCard(PROPOSAL_CARD, {
    name: "ProposalCardModel",
    schema: proposalSchema,
    // Cards of earlier versions: the values not set yet as null, no claims.
    defaults: { decidedBy: null, outcome: null, error: null, executor: null, claims: {} },
  });
}

/** The proposal of a card a GM wrote, through its data model (an older card's flag too); null for anything else. */
export function proposalOf(message: Parameters<typeof cardState>[0]): ProposalFlag | null {
  return cardState<ProposalFlag>(message, PROPOSAL_CARD);
}

/** A proposal's operation read back from the world: its executor while it is applying (operations.ts). */
function readDecision(messageId: string): ReadBack {
  return () => {
    const flag = proposalOf(game.messages.get(messageId));
    return flag?.status === "applying" ? { executor: flag.executor ?? null } : undefined;
  };
}

async function cardContent(flag: ProposalFlag): Promise<string> {
  const kind = kinds.get(flag.kind)!;
  const proposer = game.users.get(flag.proposer)?.name ?? flag.proposer;
  const decider = flag.decidedBy ? (game.users.get(flag.decidedBy)?.name ?? flag.decidedBy) : "";
  return renderTemplateCompat(
    template("proposal-card.hbs"),
    proposalCardContext(
      {
        title: kind.title,
        proposer,
        lines: flag.lines,
        status: flag.status,
        decidedBy: decider,
        outcome: flag.outcome ?? "",
        error: flag.error ?? "",
      },
      t,
    ),
  );
}

async function write(message: ChatMessage, flag: ProposalFlag): Promise<void> {
  // The values not set yet stay out of the update (the model reads them as null).
  const { decidedBy, outcome, error, ...rest } = flag;
  const state = {
    ...rest,
    ...(decidedBy !== null ? { decidedBy } : {}),
    ...(outcome !== null ? { outcome } : {}),
    ...(error !== null ? { error } : {}),
  };
  await message.update({ content: await cardContent(flag), ...cardUpdate(message, PROPOSAL_CARD, state) });
}

/**
 * On the active GM: posts a proposal card for the GMs (the request was already checked by the caller). Resolves to
 * what the requester gets back: the proposal was sent.
 */
export async function propose(kindName: string, data: unknown, proposer: User): Promise<{ proposed: true }> {
  if (!isActiveGM()) throw new UserError("AVENTURE.Error.NoActiveGM");
  const kind = kinds.get(kindName);
  if (!kind) throw new Error(`aventure | unknown proposal kind ${kindName}`);
  const flag: ProposalFlag = {
    v: 1,
    kind: kindName,
    data,
    proposer: proposer.id!,
    status: "pending",
    lines: await kind.describe(data),
    decidedBy: null,
    outcome: null,
    error: null,
    executor: null,
    claims: {},
  };
  await ChatMessage.implementation.create({
    content: await cardContent(flag),
    whisper: gmIds(),
    speaker: { alias: proposer.name },
    ...cardData(PROPOSAL_CARD, flag),
  });
  return { proposed: true };
}

/**
 * Tells the proposer how it ended (a card whispered to them, written by the active GM). `error`: the proposer's own
 * version of the failure when it differs from the GMs' (UserError#forPlayers).
 */
async function tellProposer(flag: ProposalFlag, error = flag.error): Promise<void> {
  const user = game.users.get(flag.proposer);
  if (!user || user.isGM) return;
  const kind = kinds.get(flag.kind)!;
  await ChatMessage.implementation.create({
    content: `<div class="aventure aventure-card aventure-proposal-answer"><p>${escapeHtml(t(`AVENTURE.Proposal.answer.${flag.status}`, { what: t(kind.title) }))}</p>${flag.outcome ? `<p>${escapeHtml(flag.outcome)}</p>` : ""}${error ? `<p class="aventure-warning">${escapeHtml(error)}</p>` : ""}</div>`,
    whisper: [user.id!],
  });
}

const deciding = new Set<string>();

/**
 * Claims the decision of a pending proposal for this page load before anything else is written (operations.ts
 * claimFirst: one write of this page's own key, read back): the decision is this GM's only if the proposal is still
 * pending and no other GM's claim is there. Throws "already decided" otherwise (its claim withdrawn).
 */
async function claimDecision(message: ChatMessage, id: string): Promise<ProposalFlag> {
  const mine = await claimFirst({
    write: (client, user) =>
      game.messages.get(id)
        ? message.update(
            user === null
              ? cardDeletion(message, PROPOSAL_CARD, `claims.${client}`)
              : cardUpdate(message, PROPOSAL_CARD, { claims: { [client]: user } }),
          )
        : Promise.resolve(),
    read: () => {
      const now = proposalOf(game.messages.get(id));
      return { claims: readClaims(now?.claims), open: now?.status === "pending" };
    },
  });
  const now = proposalOf(game.messages.get(id));
  if (!mine || !now) throw new UserError("AVENTURE.Proposal.alreadyDecided");
  return now;
}

/** The payload of "proposalDecide", declared once: the proposal card, and whether it is accepted. */
const proposalRefSchema = (f: Fields) => ({
  messageId: new f.StringField({ required: true, blank: false, validate: (v: unknown) => isDocumentId(v) }),
});
const decideSchema = (f: Fields) => ({
  ...proposalRefSchema(f),
  accept: new f.BooleanField({ required: true, nullable: false, initial: undefined }),
});
/** Its card alone (a card that is not a pending proposal is refused first, whatever the rest says). */
const ProposalRef = flagModel({ name: "AventureProposalRef", schema: proposalRefSchema, exact: true });
const DecideRequest = flagModel({ name: "AventureProposalDecideRequest", schema: decideSchema, exact: true });

/** Request "proposalDecide" (GMs only, active GM): apply or decline a pending proposal card, once. */
async function onDecide(raw: unknown, { sender }: { sender: User }): Promise<{ status: ProposalStatus }> {
  const id = ProposalRef.read(raw)?.messageId ?? null;
  const message = id ? game.messages.get(id) : undefined;
  const flag = proposalOf(message);
  if (!message || !flag || !id) throw new UserError("AVENTURE.Proposal.notPending");
  if (flag.status !== "pending" || deciding.has(id)) throw new UserError("AVENTURE.Proposal.alreadyDecided");
  const d = DecideRequest.read(raw);
  if (!d) throw new UserError("AVENTURE.Error.Missing", { name: "accept" });
  deciding.add(id);
  try {
    // The decision is this GM's alone before anything is decided (two GMs across a handover: claimDecision).
    const claimed = await claimDecision(message, id);
    if (!d.accept) {
      const next: ProposalFlag = { ...claimed, status: "declined", decidedBy: sender.id! };
      await write(message, next);
      await tellProposer(next);
      return { status: "declined" };
    }
    const applying: ProposalFlag = { ...claimed, status: "applying", decidedBy: sender.id!, executor: executorStamp() };
    await write(message, applying);
    return await execute(`proposal.${id}`, readDecision(id), async (guard) => {
      let next: ProposalFlag;
      let told: string | undefined;
      try {
        // The kind checks the guard before each of its writes (not whether this GM is still the active GM).
        const outcome = await kinds
          .get(flag.kind)!
          .apply(flag.data, { proposer: game.users.get(flag.proposer) ?? null, decidedBy: sender, guard });
        next = { ...applying, status: "applied", outcome };
      } catch (e) {
        if (!(isRulesError(e) || e instanceof UserError)) console.error("aventure | proposal failed", e);
        next = { ...applying, status: "failed", error: errorMessage(e) };
        if (e instanceof UserError && e.forPlayers)
          told = errorMessage(new UserError(e.forPlayers.key, e.forPlayers.data));
      }
      guard.check();
      await write(message, next);
      await tellProposer(next, told ?? next.error);
      return { status: next.status };
    });
  } finally {
    deciding.delete(id);
  }
}

/** Card part (cards.ts): Apply / Decline on a pending proposal a GM wrote, for GMs; removed for anyone else. */
export function onRenderProposalCard(message: ChatMessage, html: HTMLElement): void {
  const flag = proposalOf(message);
  const usable = !!flag && flag.status === "pending" && game.user.isGM && authoredByGM(message);
  wireButtons(html, "aventure-proposal", {
    allowed: () => usable,
    run: (b) =>
      message.id
        ? sendRequest("proposalDecide", { messageId: message.id, accept: b.dataset.accept === "true" })
        : undefined,
    // Apply and Decline wait together.
    together: (_b, all) => all,
  });
}

/**
 * Recovery (every GM: ready, a GM leaving): a proposal left "applying" by a GM who is gone (or by this GM's own
 * previous page) is marked interrupted (its feature's card tells what was done); one that another GM still applies is
 * left to that GM. A decision this GM's previous page claimed on a pending proposal is withdrawn.
 */
async function recoverProposals(): Promise<void> {
  for (const message of [...game.messages.contents]) {
    const flag = proposalOf(message);
    const id = message.id;
    // A decision this GM's previous page claimed and never made (it stopped in between) is withdrawn.
    const stale = flag?.status === "pending" ? staleOwnClaims(readClaims(flag.claims)) : [];
    if (stale.length && id && !deciding.has(id)) {
      try {
        await message.update(
          Object.assign({}, ...stale.map((client) => cardDeletion(message, PROPOSAL_CARD, `claims.${client}`))),
        );
      } catch (e) {
        console.error("aventure | could not withdraw a stale proposal claim", e);
      }
    }
    if (!flag || flag.status !== "applying" || !id || deciding.has(id)) continue;
    try {
      const claim = (executor: Executor) => message.update(cardUpdate(message, PROPOSAL_CARD, { executor }));
      await resume(`proposal.${id}`, readDecision(id), claim, async (guard) => {
        const next: ProposalFlag = { ...(proposalOf(game.messages.get(id)) ?? flag), status: "interrupted" };
        guard.check();
        await write(message, next);
        await tellProposer(next);
      });
    } catch (e) {
      console.error("aventure | could not mark an interrupted proposal", e);
    }
  }
}

export function registerProposals(): void {
  registerProposalCard();
  registerRequest({ name: "proposalDecide", gmOnly: true, handle: onDecide });
  registerRecovery("proposals", recoverProposals);
  registerCardPart({
    kind: "proposal",
    type: PROPOSAL_CARD.kind,
    selector: "[data-action='aventure-proposal']",
    render: onRenderProposalCard,
  });
}
