// Jarvis memory console: one module, no dependencies, no build step.
//
// It calls the public API with the signed-in user's own token and has no privileges of its own:
// the API decides what each role may do, the page only hides what the role cannot use. The token
// lives in sessionStorage (this tab only), is sent in the Authorization header and never in a URL
// or cookie. Everything the API returns is put in the page as text (textContent), never as HTML.

const TOKEN_KEY = "jarvis.console.token";
const NOTICE_KEY = "jarvis.console.notice";
const ROLE_TITLES = { clinician: "clinician", admin: "admin", auditor: "auditor" };

const $ = (id) => document.getElementById(id);
const state = { whoami: null, session: null, episodeId: null, auditCursors: [null] };

// ---- the API ---------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(TOKEN_KEY) ?? ""}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    credentials: "omit",
  });
  if (response.ok) return response;
  let error = {};
  try {
    error = (await response.json()).error ?? {};
  } catch {
    // not JSON: keep the status
  }
  if (response.status === 401 && state.whoami) {
    signOut("Your key is no longer valid (expired or revoked). Sign in again.");
  }
  throw new ApiError(response.status, error.code ?? "error", error.message ?? response.statusText);
}

async function apiJson(method, path, body) {
  return (await api(method, path, body)).json();
}

function describe(error) {
  if (!(error instanceof ApiError)) return `Error: ${error.message}`;
  const what = {
    401: "Not signed in",
    403: "Not allowed for your role",
    404: "Not found",
    409: "Conflict",
    413: "Too large",
    422: "Invalid input",
    429: "Too many requests; wait a minute and try again",
    503: "Service unavailable",
  }[error.status] ?? `Error ${error.status}`;
  return `${what}: ${error.message}`;
}

// ---- small DOM helpers ---------------------------------------------------------------------------

function say(element, text, kind = "info") {
  element.textContent = text;
  element.dataset.kind = kind;
}

function cell(row, text) {
  const td = document.createElement("td");
  td.textContent = text ?? "";
  row.append(td);
  return td;
}

// `name` tells a screen reader which row the button acts on; it starts with the visible label.
function button(label, onClick, kind, name) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (name) b.setAttribute("aria-label", name);
  if (kind) b.className = kind;
  b.addEventListener("click", onClick);
  return b;
}

function field(list, term, value) {
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  dd.textContent = value ?? "";
  list.append(dt, dd);
}

function utc(iso) {
  return iso ? `${new Date(iso).toISOString().slice(0, 19).replace("T", " ")} UTC` : "";
}

function outcomeLabel(outcome) {
  return outcome ?? "none yet";
}

// Form submits run through here: no page load, no second submit while the first is pending, and
// any error shown in the form's message line.
function onSubmit(form, message, handler) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    await busy(form, message, () => handler(new FormData(form)));
  });
}

// Marks `container` busy while `work` runs and ignores repeated clicks meanwhile. Buttons are not
// disabled: a disabled button loses the keyboard focus.
const pending = new WeakSet();

async function busy(container, message, work) {
  if (pending.has(container)) return;
  pending.add(container);
  container.setAttribute("aria-busy", "true");
  try {
    await work();
  } catch (error) {
    say(message, describe(error), "error");
  } finally {
    pending.delete(container);
    container.removeAttribute("aria-busy");
  }
}

function text(data, name) {
  return (data.get(name) ?? "").toString().trim();
}

// ---- sign-in ---------------------------------------------------------------------------------

async function signIn(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
  try {
    state.whoami = await apiJson("GET", "/v1/whoami");
  } catch (error) {
    sessionStorage.removeItem(TOKEN_KEY);
    throw error;
  }
  const role = state.whoami.role;
  $("identity-role").textContent = ROLE_TITLES[role];
  $("identity-subject").textContent = state.whoami.subject ? `(${state.whoami.subject})` : "";
  $("identity").hidden = false;
  $("signin").hidden = true;
  say($("notice"), "");
  for (const section of document.querySelectorAll("section.role")) {
    section.hidden = section.dataset.role !== role;
  }
  const starts = { admin: startAdmin, auditor: startAuditor };
  await starts[role]?.();
  $(`${role}-title`).focus();
}

function signOut(notice) {
  // A reload is the sure way to leave nothing of the last user's data in the page.
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.setItem(NOTICE_KEY, notice);
  window.location.reload();
}

onSubmit($("signin-form"), $("signin-message"), async (data) => {
  const token = text(data, "token");
  $("signin-form").reset();
  say($("signin-message"), "Signing in…");
  await signIn(token);
  say($("signin-message"), "");
});

$("sign-out").addEventListener("click", () => signOut("You have signed out."));

// ---- clinician ---------------------------------------------------------------------------------

onSubmit($("ask-form"), $("ask-message"), async (data) => {
  const patientId = text(data, "patient_id");
  const patientName = text(data, "patient_name");
  if (patientName && !patientId) throw new Error("a patient name needs the patient id");
  const body = { query: text(data, "query") };
  if (patientId) body.patient = patientName ? { id: patientId, name: patientName } : { id: patientId };
  // One session per patient, so one patient's recent turns never reach another patient's context.
  if (state.session && state.session.patientId === patientId) body.session_id = state.session.id;
  say($("ask-message"), "Asking…");
  $("ask-result").hidden = true;
  const answer = await apiJson("POST", "/v1/ask", body);
  state.session = { patientId, id: answer.session_id };
  showAnswer(answer, Boolean(patientId));
  say($("ask-message"), "Answer received.");
});

function showAnswer(answer, forPatient) {
  state.episodeId = answer.episode_id;
  const facts = $("safety-list");
  facts.replaceChildren();
  for (const fact of answer.safety_facts) {
    const item = document.createElement("li");
    const category = document.createElement("strong");
    category.textContent = fact.category.replace("_", " ");
    item.append(category, `: ${fact.text} `);
    const when = document.createElement("span");
    when.className = "meta";
    when.textContent = `(recorded ${utc(fact.recorded_at)})`;
    item.append(when);
    facts.append(item);
  }
  $("safety").hidden = !forPatient;
  $("safety-none").hidden = answer.safety_facts.length > 0;

  $("answer-text").textContent = answer.answer;
  const saved = answer.episode_id ? `saved as episode ${answer.episode_id}` : "not saved";
  $("answer-meta").textContent = `Model: ${answer.model}; ${saved}.`;
  $("answer-degraded").hidden = !answer.degraded;

  $("outcome-form").reset();
  $("outcome-form").hidden = !answer.episode_id;
  say($("outcome-message"), "");

  const rows = $("memories-table").tBodies[0];
  rows.replaceChildren();
  for (const memory of answer.memories) {
    const row = rows.insertRow();
    cell(row, utc(memory.created_at));
    cell(row, memory.similarity.toFixed(2));
    cell(row, outcomeLabel(memory.outcome)).dataset.outcome = memory.outcome ?? "";
    cell(row, memory.summary);
    cell(row, memory.episode_id).className = "id";
  }
  $("memories-table").hidden = answer.memories.length === 0;
  $("memories-none").hidden = answer.memories.length > 0;
  $("ask-result").hidden = false;
}

onSubmit($("outcome-form"), $("outcome-message"), async (data) => {
  const body = { outcome: text(data, "outcome") };
  const note = text(data, "note");
  if (note) body.note = note;
  await api("POST", `/v1/episodes/${encodeURIComponent(state.episodeId)}/outcome`, body);
  say($("outcome-message"), `Outcome recorded: ${body.outcome}.`, "success");
});

onSubmit($("history-form"), $("history-message"), async (data) => {
  await loadHistory(text(data, "patient_id"), Number(text(data, "limit")));
});

async function loadHistory(patientId, limit) {
  const { episodes } = await apiJson("POST", "/v1/patients/history", { patient_id: patientId, limit });
  const rows = $("history-table").tBodies[0];
  rows.replaceChildren();
  for (const episode of episodes) {
    const row = rows.insertRow();
    cell(row, utc(episode.created_at));
    cell(row, episode.query);
    cell(row, outcomeLabel(episode.outcome)).dataset.outcome = episode.outcome ?? "";
    cell(row, episode.episode_id).className = "id";
    const actions = cell(row, "");
    actions.append(
      button("Open", () => openEpisode(episode.episode_id), "", `Open episode ${episode.episode_id}`),
      button("Delete", () => deleteEpisode(episode.episode_id, $("history-message")), "danger", `Delete episode ${episode.episode_id}`),
    );
  }
  $("history-table").hidden = episodes.length === 0;
  const count = episodes.length === 1 ? "1 episode" : `${episodes.length} episodes`;
  say($("history-message"), episodes.length ? `${count} for this patient.` : "No episodes for this patient.");
}

async function deleteEpisode(episodeId, message) {
  if (!window.confirm(`Delete episode ${episodeId}? This cannot be undone.`)) return;
  await busy($("clinician"), message, async () => {
    await api("DELETE", `/v1/episodes/${encodeURIComponent(episodeId)}`);
    for (const row of $("history-table").tBodies[0].rows) {
      if (row.cells[3].textContent === episodeId) row.remove();
    }
    if ($("episode-details").dataset.episodeId === episodeId) $("episode-details").hidden = true;
    say(message, `Episode ${episodeId} deleted.`, "success");
  });
}

onSubmit($("episode-form"), $("episode-message"), async (data) => {
  await showEpisode(text(data, "episode_id"));
});

async function openEpisode(episodeId) {
  $("episode-id").value = episodeId;
  await busy($("episode-form"), $("episode-message"), () => showEpisode(episodeId));
  $("episode-title").scrollIntoView();
}

async function showEpisode(episodeId) {
  $("episode-details").hidden = true;
  say($("episode-message"), "Loading…");
  const episode = await apiJson("GET", `/v1/episodes/${encodeURIComponent(episodeId)}`);
  const list = $("episode-fields");
  list.replaceChildren();
  field(list, "Episode", episode.episode_id);
  field(list, "Date", utc(episode.created_at));
  field(list, "Patient", episode.patient_name ?? (episode.patient_ref ? "(no name given)" : "(general question)"));
  field(list, "Question", episode.query);
  field(list, "Answer", episode.response);
  field(list, "Outcome", outcomeLabel(episode.outcome));
  if (episode.outcome_note) field(list, "Outcome note", episode.outcome_note);
  field(list, "Tags", episode.tags.join(", "));
  $("episode-details").dataset.episodeId = episode.episode_id;
  $("episode-details").hidden = false;
  say($("episode-message"), "");
}

$("episode-delete").addEventListener("click", () =>
  deleteEpisode($("episode-details").dataset.episodeId, $("episode-message")),
);

// ---- auditor -----------------------------------------------------------------------------------

// The first data of a role's page; a failure shows in that section (the sign-in form is gone by now).
async function startAuditor() {
  await busy($("audit-form"), $("audit-message"), () => loadAuditPage(0));
}

function localToIso(value) {
  return value ? new Date(value).toISOString() : "";
}

function auditFilters() {
  const data = new FormData($("audit-form"));
  const params = new URLSearchParams();
  for (const name of ["actor", "patient_ref", "action", "outcome", "limit"]) {
    if (text(data, name)) params.set(name, text(data, name));
  }
  for (const name of ["since", "until"]) {
    if (text(data, name)) params.set(name, localToIso(text(data, name)));
  }
  return params;
}

async function loadAuditPage(page) {
  say($("audit-message"), "Loading…");
  const params = auditFilters();
  const cursor = state.auditCursors[page];
  if (cursor) params.set("cursor", cursor);
  const { events, next_cursor: next } = await apiJson("GET", `/v1/audit/events?${params}`);
  state.auditCursors = state.auditCursors.slice(0, page + 1);
  if (next) state.auditCursors.push(next);
  const rows = $("audit-table").tBodies[0];
  rows.replaceChildren();
  for (const event of events) {
    const row = rows.insertRow();
    cell(row, String(event.seq));
    cell(row, event.recorded_at.replace("T", " ").replace("Z", ""));
    cell(row, event.action);
    cell(row, event.subtype);
    cell(row, event.actor);
    cell(row, event.role);
    cell(row, event.outcome).dataset.outcome = event.outcome;
    cell(row, event.patient_refs.join(" ")).className = "id";
    cell(row, event.episode_ids.join(" ")).className = "id";
    cell(row, event.source_address ?? "");
  }
  $("audit-page").textContent = `Page ${page + 1}`;
  $("audit-page").dataset.page = String(page);
  $("audit-previous").disabled = page === 0;
  $("audit-next").disabled = !next;
  const shown = events.length === 1 ? "1 event" : `${events.length} events`;
  say($("audit-message"), events.length ? `Page ${page + 1}: ${shown}.` : "No events match these filters.");
}

onSubmit($("audit-form"), $("audit-message"), async () => {
  state.auditCursors = [null];
  await loadAuditPage(0);
});

for (const [id, step] of [["audit-previous", -1], ["audit-next", 1]]) {
  $(id).addEventListener("click", async () => {
    const page = Number($("audit-page").dataset.page ?? 0) + step;
    await busy($(id).parentElement, $("audit-message"), () => loadAuditPage(page));
    // On the first or last page the button just used is disabled: keep the focus in the pager.
    if ($(id).disabled) $(id).parentElement.querySelector("button:not([disabled])")?.focus();
  });
}

$("verify").addEventListener("click", () =>
  busy($("verify"), $("verify-result"), async () => {
    say($("verify-result"), "Verifying…");
    const result = await apiJson("GET", "/v1/audit/verify");
    if (result.ok) {
      say($("verify-result"), `Chain intact: ${result.events_checked} events checked; head ${result.head ?? "(empty)"}.`, "success");
    } else {
      const where = result.first_bad_seq ? ` at event ${result.first_bad_seq}` : "";
      say($("verify-result"), `Chain BROKEN${where}: ${result.reason ?? "see the server"}. ${result.events_checked} events checked.`, "error");
    }
  }),
);

$("export").addEventListener("click", () =>
  busy($("export"), $("export-message"), async () => {
    const params = auditFilters();
    for (const name of ["actor", "patient_ref", "action", "outcome", "limit"]) params.delete(name);
    say($("export-message"), "Exporting…");
    const body = await (await api("GET", `/v1/audit/export?${params}`)).text();
    const lines = body.split("\n").filter((line) => line.trim()).length;
    // The download has to come from the fetched body: a plain link could not send the token.
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([body], { type: "application/x-ndjson" }));
    link.download = `audit-events-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}Z.ndjson`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    say($("export-message"), `Exported ${lines} events as ${link.download}.`, "success");
  }),
);

// ---- admin ---------------------------------------------------------------------------------------

async function startAdmin() {
  await Promise.all([
    busy($("policy-form"), $("policy-message"), loadPolicy),
    busy($("keys-table"), $("key-message"), loadKeys),
  ]);
}

async function loadPolicy() {
  const policy = await apiJson("GET", "/v1/admin/retention/policy");
  $("policy-default-days").value = String(policy.default_days);
  $("policy-overrides").value = Object.entries(policy.per_doctor).map(([d, days]) => `${d} ${days}`).join("\n");
}

function parseOverrides(value) {
  const perDoctor = {};
  for (const [index, line] of value.split("\n").entries()) {
    if (!line.trim()) continue;
    const match = line.trim().match(/^(\S+)\s+(\d+)$/);
    if (!match) throw new Error(`override line ${index + 1} should look like "dr-a 30"`);
    perDoctor[match[1]] = Number(match[2]);
  }
  return perDoctor;
}

onSubmit($("policy-form"), $("policy-message"), async (data) => {
  const body = { default_days: Number(text(data, "default_days")), per_doctor: parseOverrides(text(data, "per_doctor")) };
  const saved = await apiJson("PUT", "/v1/admin/retention/policy", body);
  const overrides = Object.keys(saved.per_doctor).length;
  say($("policy-message"), `Policy saved: ${saved.default_days} days, ${overrides} per-doctor override(s).`, "success");
});

async function runRetention(dryRun) {
  const report = await apiJson("POST", "/v1/admin/retention/run", { dry_run: dryRun });
  const list = $("retention-report");
  list.replaceChildren();
  field(list, "Run", report.dry_run ? "dry run (nothing deleted)" : "purge");
  field(list, "Cutoff", utc(report.cutoff));
  field(list, "Expired episodes", String(report.candidates));
  field(list, "Episodes deleted", String(report.deleted));
  field(list, "Episodes kept by legal holds", String(report.held));
  field(list, "Facts deleted", String(report.facts_deleted));
  field(list, "Facts kept by legal holds", String(report.facts_held));
  field(list, "Doctors' collections compacted", String(report.doctors_compacted));
  field(list, "Took", `${report.seconds.toFixed(2)} s`);
  list.hidden = false;
  const done = report.dry_run
    ? `Dry run: ${report.candidates} episodes would be purged, ${report.held} held.`
    : `Purge done: ${report.deleted} episodes deleted, ${report.held} held.`;
  say($("retention-message"), done, "success");
}

$("retention-dry-run").addEventListener("click", () =>
  busy($("retention-dry-run").parentElement, $("retention-message"), () => runRetention(true)),
);

$("retention-purge").addEventListener("click", () => {
  if (!window.confirm("Purge now? Expired episodes and facts are deleted for good.")) return;
  return busy($("retention-purge").parentElement, $("retention-message"), () => runRetention(false));
});

onSubmit($("hold-form"), $("hold-message"), async (data) => {
  const result = await apiJson("POST", "/v1/admin/legal-holds", { patient_id: text(data, "patient_id") });
  say($("hold-message"), result.created ? "Legal hold placed." : "This patient was already on legal hold.", "success");
});

$("hold-remove").addEventListener("click", () => {
  const form = $("hold-form");
  if (!form.reportValidity()) return;
  return busy(form, $("hold-message"), async () => {
    await api("DELETE", "/v1/admin/legal-holds", { patient_id: $("hold-patient-id").value.trim() });
    say($("hold-message"), "Legal hold lifted.", "success");
  });
});

async function loadKeys() {
  const { keys } = await apiJson("GET", "/v1/admin/api-keys");
  const rows = $("keys-table").tBodies[0];
  rows.replaceChildren();
  for (const key of keys) {
    const row = rows.insertRow();
    row.dataset.keyId = key.key_id;
    cell(row, key.key_id).className = "id";
    cell(row, key.role);
    cell(row, key.subject ?? "");
    cell(row, utc(key.created_at));
    cell(row, key.revoked_at ? `revoked ${utc(key.revoked_at)}` : "active");
    const action = cell(row, "");
    if (key.key_id === state.whoami.key_id) {
      action.textContent = "your key (this session)";
    } else if (!key.revoked_at) {
      action.append(button("Revoke", () => revokeKey(key.key_id), "danger", `Revoke key ${key.key_id}`));
    }
  }
}

async function revokeKey(keyId) {
  if (!window.confirm(`Revoke key ${keyId}? Whoever uses it is signed out at once.`)) return;
  await busy($("keys-table"), $("key-message"), async () => {
    await api("DELETE", `/v1/admin/api-keys/${encodeURIComponent(keyId)}`);
    await loadKeys();
    say($("key-message"), `Key ${keyId} revoked.`, "success");
  });
}

onSubmit($("key-form"), $("key-message"), async (data) => {
  const body = { role: text(data, "role") };
  if (text(data, "subject")) body.subject = text(data, "subject");
  const key = await apiJson("POST", "/v1/admin/api-keys", body);
  $("new-key-token").value = key.token;
  $("new-key").hidden = false;
  $("key-form").reset();
  await loadKeys();
  say($("key-message"), `Key ${key.key_id} created for ${key.role}${key.subject ? ` ${key.subject}` : ""}.`, "success");
  $("new-key-token").focus();
  $("new-key-token").select();
});

$("new-key-copy").addEventListener("click", async () => {
  $("new-key-token").select();
  try {
    await navigator.clipboard.writeText($("new-key-token").value);
    say($("key-message"), "Key copied to the clipboard.", "success");
  } catch {
    say($("key-message"), "Could not copy: the key is selected, copy it with the keyboard.", "error");
  }
});

$("new-key-done").addEventListener("click", () => {
  $("new-key-token").value = "";
  $("new-key").hidden = true;
  $("key-form").querySelector("select").focus();
});

// ---- start -----------------------------------------------------------------------------------

async function start() {
  const notice = sessionStorage.getItem(NOTICE_KEY);
  sessionStorage.removeItem(NOTICE_KEY);
  if (notice) say($("notice"), notice);
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) {
    $("signin-token").focus();
    return;
  }
  // A reload in a signed-in tab: check the key again (it may have been revoked meanwhile).
  try {
    await signIn(token);
  } catch (error) {
    say($("signin-message"), describe(error), "error");
  }
}

start();
