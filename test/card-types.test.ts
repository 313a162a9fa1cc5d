/**
 * Each chat card's state type is derived from its data model's schema (core/card-model.ts CardData), declared once:
 * these checks are made by the compiler (`npm run typecheck` covers test/), so a card type that stopped following its
 * schema — a choice list widened to `string`, a field the schema has and the type lacks — fails the build.
 */
import { describe, expectTypeOf, it } from "vitest";
import { choiceField, flagField, type CardData, type Fields } from "../src/core/card-model.js";
import { explorationSchema, type ExplorationCard } from "../src/exploration/card.js";
import { sideRoundSchema, type SideRoundAudience, type SideRoundCardFlag } from "../src/combat/side-round-card.js";
import { fallSchema, type FallCardFlag, type FallRef } from "../src/movement/fall-card.js";
import type { IntentionCardFlag } from "../src/combat/intention-card.js";
import type { SuffocationCard } from "../src/breath/suffocation-card.js";
import type { EncounterCard } from "../src/encounter/card.js";
import type { PolarisTestCard } from "../src/polaris/test-card.js";
import type { DetectCardState, HideCardState, HideEndCardState, SearchCardState } from "../src/light/hide-cards.js";
import type { HideFlag, HideOp } from "../src/light/hide-state.js";
import type { DetectRow } from "../src/light/hide-card-context.js";
import type { JourneyWhat, TravelCardFlag, TravelJournalToken } from "../src/travel/journey.js";
import type { ChaseCardState } from "../src/pursuit/chase-card.js";
import type { ProposalFlag, ProposalStatus } from "../src/core/proposals.js";
import type { RulesetId } from "../src/rules/index.js";
import type { HideEndEvent } from "../src/rules/stealth.js";
import type { EncounterPlace } from "../src/rules/encounter.js";

type Executor = { user: string; client: string; took: boolean } | null;
type Problems = { key: string; data: Record<string, string | number> }[];

describe("card state types follow their schemas", () => {
  it("the exploration card: exactly its schema's two fields", () => {
    expectTypeOf<ExplorationCard>().toEqualTypeOf<{ op: string; encounter: boolean }>();
    expectTypeOf<CardData<typeof explorationSchema>>().toEqualTypeOf<ExplorationCard>();
  });

  it("a field added to a schema is in its type, with its choices as a union", () => {
    const extended = (f: Fields) => ({
      ...explorationSchema(f),
      mood: choiceField(["calm", "tense"]),
      lost: flagField(),
    });
    expectTypeOf<CardData<typeof extended>>().toEqualTypeOf<{
      op: string;
      encounter: boolean;
      mood: "calm" | "tense";
      lost: boolean;
    }>();
    expectTypeOf(extended).toBeFunction();
  });

  it("the side-round card: its version and its audience are the schema's literals", () => {
    expectTypeOf<SideRoundCardFlag>().toEqualTypeOf<{
      v: 2;
      combat: string;
      round: number;
      op: string;
      kind: "public" | "gm";
    }>();
    expectTypeOf<SideRoundAudience>().toEqualTypeOf<"public" | "gm">();
    expectTypeOf<CardData<typeof sideRoundSchema>["kind"]>().not.toEqualTypeOf<string>();
  });

  it("the fall card: its status and source unions, its reference, its optional values always filled", () => {
    expectTypeOf<FallCardFlag["status"]>().toEqualTypeOf<"applying" | "applied" | "pending">();
    expectTypeOf<FallCardFlag["source"]>().toEqualTypeOf<"api" | "region" | "drop" | "hud">();
    expectTypeOf<FallCardFlag["ref"]>().toEqualTypeOf<FallRef>();
    expectTypeOf<FallCardFlag["hpBefore"]>().toEqualTypeOf<{ value: number; temp: number } | null>();
    expectTypeOf<FallCardFlag["manual"]>().toEqualTypeOf<{ path: string; after: number } | null>();
    expectTypeOf<FallCardFlag["resumed"]>().toEqualTypeOf<boolean>();
    expectTypeOf<FallCardFlag["executor"]>().toEqualTypeOf<Executor>();
    expectTypeOf<FallCardFlag["problems"]>().toEqualTypeOf<Problems>();
    expectTypeOf<CardData<typeof fallSchema>>().toEqualTypeOf<FallCardFlag>();
  });

  it("the other cards' choices and nullable values", () => {
    expectTypeOf<IntentionCardFlag["status"]>().toEqualTypeOf<"applying" | "done">();
    expectTypeOf<IntentionCardFlag["v"]>().toEqualTypeOf<1>();
    expectTypeOf<SuffocationCard["hpPath"]>().toEqualTypeOf<string | null>();
    expectTypeOf<SuffocationCard["status"]>().toEqualTypeOf<"applying" | "applied">();
    expectTypeOf<EncounterCard>().toEqualTypeOf<{ where: EncounterPlace; distance: number }>();
    expectTypeOf<PolarisTestCard["countdown"]>().toEqualTypeOf<{
      left: number;
      succeeded: boolean;
      exhausted: boolean;
    } | null>();
    expectTypeOf<HideOp["changes"][number]["after"]>().toEqualTypeOf<HideFlag | null>();
    expectTypeOf<HideOp["mark"]>().toEqualTypeOf<string | null>();
    expectTypeOf<HideCardState["op"]>().toEqualTypeOf<HideOp>();
    expectTypeOf<SearchCardState["op"]>().toEqualTypeOf<HideOp>();
    expectTypeOf<HideEndCardState["event"]>().toEqualTypeOf<HideEndEvent>();
    expectTypeOf<DetectCardState["op"]>().toEqualTypeOf<HideOp | null>();
    expectTypeOf<DetectRow["passive"]>().toEqualTypeOf<number | null>();
    expectTypeOf<DetectRow["dc"]>().toEqualTypeOf<number>();
    expectTypeOf<DetectRow["status"]>().toEqualTypeOf<"pending" | "revealed" | "ignored" | "gone">();
    expectTypeOf<TravelCardFlag["problems"][number]["what"]>().toEqualTypeOf<JourneyWhat>();
    expectTypeOf<TravelCardFlag["journal"]["days"]>().toEqualTypeOf<number | null>();
    expectTypeOf<TravelJournalToken["stops"]>().toEqualTypeOf<{ x: number; y: number }[]>();
    expectTypeOf<TravelCardFlag["error"]>().toEqualTypeOf<{
      key: string;
      data: Record<string, string | number>;
    } | null>();
    expectTypeOf<ChaseCardState["ruleset"]>().toEqualTypeOf<RulesetId>();
    expectTypeOf<ChaseCardState["claims"]>().toEqualTypeOf<Record<string, string>>();
    expectTypeOf<NonNullable<ChaseCardState["apply"]>["status"]>().toEqualTypeOf<"applying" | "applied">();
    expectTypeOf<ProposalFlag["status"]>().toEqualTypeOf<ProposalStatus>();
    expectTypeOf<ProposalFlag["decidedBy"]>().toEqualTypeOf<string | null>();
    expectTypeOf<ProposalFlag["data"]>().toEqualTypeOf<unknown>();
  });

  it("a value outside a card's choices does not type", () => {
    // @ts-expect-error "other" is not one of the side-round card's audiences
    const audience: SideRoundCardFlag["kind"] = "other";
    // @ts-expect-error the fall card's version is 2
    const version: FallCardFlag["v"] = 1;
    expectTypeOf(audience).toBeString();
    expectTypeOf(version).toBeNumber();
  });
});
