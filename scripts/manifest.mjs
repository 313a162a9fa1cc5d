/**
 * The public URLs of module.json (url, manifest, download). They are written only by a release build, and they
 * come from the release's environment, never from a guess: a GitHub Actions run for a tag (GITHUB_REF_TYPE=tag)
 * gives the repository (GITHUB_REPOSITORY, e.g. "someone/aventure"), the tag (GITHUB_REF_NAME, "v1.2.3") and the
 * server (GITHUB_SERVER_URL). So any fork that pushes the tag vX.Y.Z publishes a manifest that works for it:
 *   url      https://github.com/<repository>
 *   manifest https://github.com/<repository>/releases/latest/download/module.json   (Foundry's update check)
 *   download https://github.com/<repository>/releases/download/vX.Y.Z/aventure.zip  (pinned to this version)
 * Any other build (local, CI on a branch) writes none of them.
 */

export const URL_KEYS = /** @type {const} */ (["url", "manifest", "download"]);

/**
 * The release URLs for this environment, or null when it is not a release (no tag).
 * Throws when it is a release whose tag is not v<version> or whose repository is unreadable.
 * @param {Record<string, string | undefined>} env
 * @param {string} version
 * @returns {{ url: string, manifest: string, download: string } | null}
 */
export function releaseUrls(env, version) {
  if (env.GITHUB_REF_TYPE !== "tag") return null;
  const repo = env.GITHUB_REPOSITORY ?? "";
  const tag = env.GITHUB_REF_NAME ?? "";
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repo))
    throw new Error(`release build: GITHUB_REPOSITORY "${repo}" is not owner/name`);
  if (tag !== `v${version}`)
    throw new Error(`release build: the tag "${tag}" is not v${version}, the version of package.json`);
  const server = (env.GITHUB_SERVER_URL || "https://github.com").replace(/\/+$/, "");
  if (!/^https:\/\/[^/\s]+$/.test(server))
    throw new Error(`release build: GITHUB_SERVER_URL "${server}" is not an https origin`);
  const url = `${server}/${repo}`;
  return {
    url,
    manifest: `${url}/releases/latest/download/module.json`,
    download: `${url}/releases/download/${tag}/aventure.zip`,
  };
}

/**
 * dist/module.json from the source module.json: the version of package.json, and the release URLs when the
 * environment is a release (any url/manifest/download in the source is dropped).
 * @param {Record<string, unknown>} source
 * @param {string} version
 * @param {Record<string, string | undefined>} env
 */
export function manifestFor(source, version, env) {
  /** @type {Record<string, unknown>} */
  const out = { ...source, version };
  for (const k of URL_KEYS) delete out[k];
  const urls = releaseUrls(env, version);
  if (urls) Object.assign(out, urls);
  return out;
}

/**
 * What is wrong with the URLs of a built module.json, checked in the environment that built it: a release build
 * must carry exactly its release URLs; any build that carries URLs must carry all three, consistent with each
 * other and with the version.
 * @param {Record<string, unknown>} m
 * @param {string} version
 * @param {Record<string, string | undefined>} env
 * @returns {string[]}
 */
export function urlProblems(m, version, env) {
  const problems = [];
  /** @type {ReturnType<typeof releaseUrls>} */
  let expected = null;
  try {
    expected = releaseUrls(env, version);
  } catch (e) {
    problems.push(/** @type {Error} */ (e).message);
  }
  if (expected) {
    for (const k of URL_KEYS)
      if (m[k] !== expected[k])
        problems.push(`module.json: ${k} is ${JSON.stringify(m[k])}, the release needs ${expected[k]}`);
    return problems;
  }
  const present = URL_KEYS.filter((k) => m[k] !== undefined);
  if (present.length === 0) return problems;
  if (present.length < URL_KEYS.length) {
    problems.push(
      `module.json: ${present.join(", ")} without ${URL_KEYS.filter((k) => !present.includes(k)).join(", ")}`,
    );
    return problems;
  }
  const { url, manifest, download } = /** @type {Record<string, unknown>} */ (m);
  if (typeof url !== "string" || !/^https:\/\/[^/\s]+\/[^/\s]+\/[^/\s]+$/.test(url))
    problems.push(`module.json: url ${JSON.stringify(url)} is not https://host/owner/name`);
  if (manifest !== `${url}/releases/latest/download/module.json`)
    problems.push(
      `module.json: manifest ${JSON.stringify(manifest)} is not the latest release's module.json of ${url}`,
    );
  if (download !== `${url}/releases/download/v${version}/aventure.zip`)
    problems.push(`module.json: download ${JSON.stringify(download)} is not the zip of the tag v${version} of ${url}`);
  return problems;
}
