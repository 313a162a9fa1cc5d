/**
 * The module's compendiums in the fake world (game.packs): the Polaris templates, built from the same source as the
 * shipped compendium (packs-src/polaris.mjs, compiled by scripts/build.mjs).
 *
 * Sources (public API documentation, v13): game.packs is a collection of CompendiumCollection by id
 * ("<package id>.<pack name>"); CompendiumCollection#getDocument(id) resolves to the document
 * (https://foundryvtt.com/api/v13/classes/foundry.documents.collections.CompendiumCollection.html); an Adventure holds
 * its actors in `actors`, a Set of Actor data (https://foundryvtt.com/api/v13/classes/foundry.documents.Adventure.html),
 * each with toObject().
 */
import { clone, type Plain } from "./data.js";
import { polarisDocuments, POLARIS_PACK_NAME } from "../../packs-src/polaris.mjs";

export interface FakeAdventure {
  id: string;
  name: string;
  actors: Set<{ _id: string; name: string; type: string; toObject(): Plain }>;
}

export interface FakePack {
  collection: string;
  documentName: string;
  index: { _id: string; name: string }[];
  getDocument(id: string): Promise<FakeAdventure | undefined>;
}

function adventurePack(id: string, docs: Plain[]): FakePack {
  return {
    collection: id,
    documentName: "Adventure",
    index: docs.map((d) => ({ _id: String(d._id), name: String(d.name) })),
    async getDocument(docId: string) {
      const d = docs.find((x) => x._id === docId);
      if (!d) return undefined;
      const actors = (d.actors as Plain[]).map((a) => ({
        _id: String(a._id),
        name: String(a.name),
        type: String(a.type),
        toObject: () => clone(a),
      }));
      return { id: docId, name: String(d.name), actors: new Set(actors) };
    },
  };
}

/** The packs of the module as game.packs holds them. */
export function modulePacks(): Map<string, FakePack> {
  const id = `aventure.${POLARIS_PACK_NAME}`;
  return new Map([[id, adventurePack(id, polarisDocuments() as unknown as Plain[])]]);
}
