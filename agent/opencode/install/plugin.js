// session-hooks for OpenCode: written by `session-hooks --agent opencode install`,
// removed by `session-hooks --agent opencode uninstall` (edit neither by hand: install
// rewrites this file). OpenCode runs no shell hooks, so this plugin runs session-hooks
// on its events, as the other clients' hooks do: the brief and the recovery go into the
// system prompt, the snapshot into what a compaction's summary must keep, the handoff
// is written when the session goes idle.
const WIRED = /*WIRED*/ { entries: [] } /*WIRED*/

import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const command = (args) => WIRED.entries.find((e) => e.args === args)

export const SessionHooks = async ({ client, directory }) => {
  // The session as `opencode export` writes it goes to a private folder
  // (0700) for the run to read, one file per session, removed at exit.
  const folder = mkdtempSync(join(tmpdir(), "session-hooks-opencode-"))
  const system = new Map() // session → the text its system prompt carries
  const held = new Set() // sessions whose stop was held this turn
  // OpenCode disposes of the plugin as soon as a one-shot run's session
  // goes idle: what the idle started is waited for there.
  const pending = new Set()
  const track = (p) => {
    pending.add(p)
    return p.finally(() => pending.delete(p))
  }

  // run gives session-hooks the payload and returns what it printed, ""
  // when it failed or ran past the entry's timeout.
  const run = (entry, payload) =>
    new Promise((resolve) => {
      let out = ""
      let child
      try {
        child = spawn(entry.command, [], {
          shell: true,
          cwd: directory,
          stdio: ["pipe", "pipe", "ignore"],
          env: { ...process.env, OPENCODE_PROJECT_DIR: directory },
        })
      } catch {
        return resolve("")
      }
      const timer = setTimeout(() => child.kill("SIGKILL"), entry.timeout * 1000)
      child.stdout.on("data", (b) => (out += b))
      child.on("error", () => resolve(""))
      child.on("close", (code) => {
        clearTimeout(timer)
        resolve(code === 0 ? out : "")
      })
      child.stdin.on("error", () => {})
      child.stdin.end(JSON.stringify({ cwd: directory, ...payload }))
    })

  // session writes the session to the private folder: its path ("" when
  // OpenCode cannot give it) and its messages.
  const session = async (id) => {
    try {
      const info = await client.session.get({ path: { id } })
      const messages = (await client.session.messages({ path: { id } })).data || []
      const path = join(folder, id.replace(/[^A-Za-z0-9_-]/g, "") + ".json")
      writeFileSync(path, JSON.stringify({ info: info.data, messages }), { mode: 0o600 })
      return { path, messages }
    } catch {
      return { path: "", messages: [] }
    }
  }

  // hook runs the entry of args for the session id; payload is the
  // payload's own fields, or what makes them from the session's messages.
  const hook = async (args, id, payload) => {
    const entry = command(args)
    if (!entry) return ""
    const { path, messages } = await session(id)
    const own = typeof payload === "function" ? payload(messages) : payload
    return run(entry, { session_id: id, transcript_path: path, hook_event_name: entry.event, ...own })
  }

  // startSource is a session's start as its messages show it: a resume
  // when it held a request before this one.
  const startSource = (messages) =>
    messages.filter((m) => m.info && m.info.role === "user").length > 1 ? "resume" : "startup"

  // recovering holds, from a compaction's start to its recovery, what the
  // next request waits for (OpenCode may send it before session.compacted
  // is handled).
  const recovering = new Map()
  const recovered = (id) => {
    let done
    const wait = new Promise((resolve) => (done = resolve))
    recovering.set(id, { wait, done })
  }
  const waitRecovery = async (id) => {
    const r = recovering.get(id)
    if (!r) return
    const entry = command("init --compact-recovery")
    await Promise.race([r.wait, new Promise((resolve) => setTimeout(resolve, (entry ? entry.timeout : 0) * 1000))])
    recovering.delete(id)
  }

  const idle = async (id) => {
    const stop = await hook("stop", id, { stop_hook_active: held.has(id) })
    held.delete(id)
    let reason = ""
    try {
      const reply = JSON.parse(stop || "{}")
      if (reply.decision === "block") reason = reply.reason || ""
    } catch {}
    if (reason) {
      held.add(id)
      // Awaited: a one-shot run ends once nothing it waits for is left.
      await client.session.prompt({ path: { id }, body: { parts: [{ type: "text", text: reason }] } }).catch(() => {})
      return
    }
    await hook("end", id, { reason: "other" })
  }

  return {
    "experimental.chat.system.transform": async (input, output) => {
      const id = input.sessionID
      if (!id) return
      await waitRecovery(id)
      if (!system.has(id)) {
        system.set(id, "")
        system.set(id, await hook("init", id, (messages) => ({ source: startSource(messages) })))
      }
      const text = system.get(id)
      if (text) output.system.push(text)
    },
    "experimental.session.compacting": async (input, output) => {
      if (command("init --compact-recovery")) recovered(input.sessionID)
      const text = await hook("pre-compact", input.sessionID, { trigger: "auto", custom_instructions: "" })
      if (text) output.context.push(text)
    },
    event: async ({ event }) => {
      const id = event.properties && event.properties.sessionID
      if (event.type === "session.compacted" && id) {
        system.set(id, await hook("init --compact-recovery", id, { source: "compact" }))
        const r = recovering.get(id)
        if (r) r.done()
      } else if (event.type === "session.idle" && id) {
        await track(idle(id))
      }
    },
    dispose: async () => {
      await Promise.allSettled([...pending])
      rmSync(folder, { recursive: true, force: true })
    },
  }
}
