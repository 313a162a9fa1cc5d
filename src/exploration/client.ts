/**
 * The exploration seen from a client: what the panel shows (read from the world setting and the tokens), the tokens a
 * GM selected, and `api.exploration` (docs/api/exploration.md). Every change is a request to the active GM
 * ("exploration", GMs only), which checks it and applies it once; a refusal is shown in the user's language.
 */
import { featureRuleset, worldFeatureNote } from "../core/features.js";
import { guarded } from "../core/i18n.js";
import { sendRequest } from "../core/requests.js";
import type { PanelInput, PanelMember } from "./exploration-context.js";
import { currentRecord, EXPLORATION_REQUEST, rememberedLight, type ExplorationReply } from "./exploration.js";
import { lightToken, type TokenRef } from "./record.js";

/** The request's answer, or undefined when it was refused (the user was told why). */
export function requestExploration(data: Record<string, unknown>): Promise<ExplorationReply | undefined> {
  return guarded(() => sendRequest<ExplorationReply>(EXPLORATION_REQUEST, data));
}

interface TokenDocLike {
  id: string | null;
  name: string;
  parent: { id: string | null } | null;
}

function isTokenDoc(v: unknown): v is TokenDocLike {
  return !!v && typeof v === "object" && "id" in v && "name" in v && "parent" in v && typeof v.name === "string";
}

/**
 * A token as a reference: a TokenDocument, a Token on the canvas (its document) or `{sceneId, tokenId}`. Anything
 * else goes as it is (the active GM refuses it with a message).
 */
export function tokenRef(token: unknown): unknown {
  const doc: unknown = token && typeof token === "object" && "document" in token ? token.document : token;
  if (isTokenDoc(doc)) return { sceneId: doc.parent?.id ?? null, tokenId: doc.id };
  return token;
}

/** The controlled tokens of the canvas (the party to start with). */
export function selectedTokens(): unknown[] {
  return (canvas?.tokens?.controlled ?? []).map((t) => tokenRef(t));
}

function tokenDoc(ref: TokenRef): unknown {
  return game.scenes.get(ref.sceneId)?.tokens.get(ref.tokenId);
}

/** What the panel shows, read on this client (names and lights from the tokens). */
export function panelInput(): Omit<PanelInput, "options" | "bad" | "busy"> {
  const record = currentRecord();
  const members: PanelMember[] = record.party.map((m) => {
    const doc = tokenDoc(m);
    return {
      ...m,
      name: isTokenDoc(doc) ? doc.name : m.name,
      gone: !doc,
      dark: isTokenDoc(doc) && rememberedLight(doc) !== null,
    };
  });
  const otherNames: Record<string, string> = {};
  for (const l of record.state?.lights ?? []) {
    const r = lightToken(l.id);
    const doc = r ? tokenDoc(r) : null;
    if (isTokenDoc(doc)) otherNames[l.id] = doc.name;
  }
  return {
    record,
    ruleset: featureRuleset("exploration"),
    worldTime: game.time.worldTime,
    members,
    otherNames,
    lang: game.i18n.lang,
    // docs/rules.md §0: the rules in use say so when the game has no wandering checks, or whose they are when borrowed.
    wandering: worldFeatureNote("wandering"),
  };
}

/** The revision the caller's client knows (a request from an older one is refused). */
const rev = () => currentRecord().rev;

/** api.exploration: the same actions as the panel's buttons, for macros and modules (GMs). */
export function explorationApi() {
  return {
    /** The exploration as stored: `{ rev, state, time, party, restDue }` (state null when none is under way). */
    status: () => {
      const { rev, state, time, party, restDue } = currentRecord();
      return { rev, state, time, party, restDue };
    },
    /** Starts exploring with these tokens (default: the selected ones). */
    start: (tokens?: unknown[]) =>
      requestExploration({ op: "start", rev: rev(), tokens: tokens ? tokens.map(tokenRef) : selectedTokens() }),
    /** Ends the exploration (the tokens' lights stay as they are). */
    end: () => requestExploration({ op: "end", rev: rev() }),
    /** Sets the party (default: the selected tokens). */
    party: (tokens?: unknown[]) =>
      requestExploration({ op: "party", rev: rev(), tokens: tokens ? tokens.map(tokenRef) : selectedTokens() }),
    /** Advances `turns` turns of exploration (or of rest, or of searching), moving world time. */
    advance: (turns: unknown = 1, options: { rest?: boolean; search?: boolean } = {}) =>
      requestExploration({
        op: "advance",
        rev: rev(),
        action: options?.rest ? "rest" : options?.search ? "search" : "explore",
        turns,
      }),
    /** Spends `seconds` of world time (Rôle'n Play's minutes): the turns they complete are counted. */
    spend: (seconds: unknown) => requestExploration({ op: "advance", rev: rev(), action: "spend", seconds }),
    /** Lights a torch, a lantern or a custom light (`turns`) carried by a token. */
    light: (token: unknown, kind: unknown = "torch", turns?: unknown) =>
      requestExploration({
        op: "light",
        rev: rev(),
        token: tokenRef(token),
        kind,
        ...(turns === undefined ? {} : { turns }),
      }),
    /** Puts out a token's light before it burns out. */
    putOut: (token: unknown) => requestExploration({ op: "putOut", rev: rev(), token: tokenRef(token) }),
  };
}
