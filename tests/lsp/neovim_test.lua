-- `torchlint lsp` under a real client: Neovim's built-in LSP client (Debian 12's nvim 0.7, so
-- vim.lsp.start_client + buf_attach_client; newer versions also have vim.lsp.start), headless.
--
--   TORCHLINT=build/bin/torchlint TORCHLINT_SOURCE_DIR=. nvim --headless -u NONE -c 'luafile tests/lsp/neovim_test.lua'
--
-- Opens a copy of examples/train.cpp, waits for the diagnostics and compares them with the CLI's
-- findings (`torchlint --quiet --format=json`: vim.fn.system merges stderr, where the CLI names the flags it guessed), applies one fix-it quick fix through the code action
-- request and vim.lsp.util.apply_workspace_edit, waits for the re-analysis of the edited buffer,
-- applies the "fix all" source action, writes the file (didSave), and compares the file on disk
-- with what `torchlint --fix` makes of another copy. Exits 0 on success, 1 with a message on stderr.

local torchlint = os.getenv("TORCHLINT")
local source_dir = os.getenv("TORCHLINT_SOURCE_DIR")
local timeout_ms = tonumber(os.getenv("LSP_TEST_TIMEOUT_MS") or "300000")

local function log(msg)
  io.stderr:write("neovim_test: " .. msg .. "\n")
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

local function copy(from, to)
  local f = assert(io.open(to, "wb"))
  f:write(read(from))
  f:close()
end

local function main()
  assert(torchlint and torchlint ~= "", "TORCHLINT must name the torchlint binary")
  assert(source_dir and source_dir ~= "", "TORCHLINT_SOURCE_DIR must name the repository")
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, "p")
  local example = source_dir .. "/examples/train.cpp"
  local file, ref = dir .. "/train.cpp", dir .. "/train_cli.cpp"
  copy(example, file)
  copy(example, ref)

  -- The CLI's view: findings and --fix, on another copy (the editor's copy has no cached result:
  -- the server analyses it itself, with the precompiled libtorch header the CLI made).
  local cli = vim.fn.json_decode(vim.fn.system({ torchlint, "--quiet", "--format=json", ref }))
  local want = {}
  for _, f in ipairs(cli.findings) do
    local s = string.format("%d:%d %s %s", f.line, f.column, f.check, f.message)
    for _, n in ipairs(f.notes) do
      s = s .. string.format(" | note %d:%d %s", n.line, n.column, n.message)
    end
    table.insert(want, s)
  end
  table.sort(want)
  assert(#want == 12, "the CLI gives " .. #want .. " findings on examples/train.cpp, not 12")
  vim.fn.system({ torchlint, "--quiet", "--fix", ref })

  -- Record every publishDiagnostics, then let Neovim's own handler show them.
  local published = {}
  local default = vim.lsp.handlers["textDocument/publishDiagnostics"]
  vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
    table.insert(published, result)
    return default(err, result, ctx, config)
  end

  vim.cmd("edit " .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = "cpp"
  -- The snippet of docs/editors.md (Neovim 0.7; with 0.8+ `vim.lsp.start` takes the same table).
  local client_id = vim.lsp.start_client({
    name = "torchlint",
    cmd = { torchlint, "lsp" },
    root_dir = dir,
  })
  assert(client_id, "vim.lsp.start_client failed")
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)

  -- The diagnostics of the buffer's current version.
  local function wait_current(what)
    local ok = vim.wait(timeout_ms, function()
      local last = published[#published]
      return last and last.version == vim.lsp.util.buf_versions[bufnr]
    end, 50)
    assert(ok, "no diagnostics for " .. what .. " within " .. timeout_ms .. " ms")
    return published[#published]
  end

  local first = wait_current("the opened file")
  log("published version " .. tostring(first.version) .. ", buffer version " .. tostring(vim.lsp.util.buf_versions[bufnr]) .. ", changedtick " .. vim.api.nvim_buf_get_changedtick(bufnr))
  local got = {}
  for _, d in ipairs(first.diagnostics) do
    assert(d.source == "torchlint", "source " .. tostring(d.source))
    local page = "/docs/checks/" .. d.code .. ".md"
    assert(d.codeDescription and d.codeDescription.href:sub(-#page) == page, "codeDescription of " .. d.code)
    local s = string.format("%d:%d %s %s", d.range.start.line + 1, d.range.start.character + 1, d.code, d.message)
    for _, r in ipairs(d.relatedInformation or {}) do
      assert(r.location.uri == vim.uri_from_bufnr(bufnr), "a note elsewhere: " .. r.location.uri)
      s = s .. string.format(" | note %d:%d %s", r.location.range.start.line + 1, r.location.range.start.character + 1,
        r.message)
    end
    table.insert(got, s)
  end
  table.sort(got)
  assert(vim.deep_equal(want, got), "diagnostics differ from the CLI's findings:\nCLI:\n" ..
    table.concat(want, "\n") .. "\nLSP:\n" .. table.concat(got, "\n"))
  assert(#vim.diagnostic.get(bufnr) == 12, "Neovim shows " .. #vim.diagnostic.get(bufnr) .. " diagnostics")
  log("12 diagnostics, identical to the CLI's findings (positions, messages, notes)")

  -- One quick fix, as a user picks it: code actions for the diagnostic under the cursor.
  local function code_actions(range, diagnostics, only)
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = range,
      context = { diagnostics = diagnostics, only = only },
    }
    local res = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, timeout_ms)
    assert(res and res[client_id], "no answer to textDocument/codeAction")
    assert(not res[client_id].err, vim.inspect(res[client_id].err))
    return res[client_id].result or {}
  end
  -- Every diagnostic has a NOLINT action; those with a fix-it a quick fix. Asked for all of them
  -- first (an applied edit makes the others stale), then the first fix-it is applied.
  local quickfix
  for _, d in ipairs(first.diagnostics) do
    local actions = code_actions(d.range, { d })
    local nolint = false
    for _, a in ipairs(actions) do
      nolint = nolint or a.title == "torchlint: suppress with NOLINT(" .. d.code .. ")"
      if not quickfix and a.kind == "quickfix" and a.title:sub(1, 27) == "torchlint: apply the fix fo" then
        quickfix = a
      end
    end
    assert(nolint, "no NOLINT action for " .. d.code .. ": " .. vim.inspect(actions):sub(1, 2000))
  end
  local applied
  if quickfix then
    vim.lsp.util.apply_workspace_edit(quickfix.edit, client.offset_encoding)
    applied = quickfix.diagnostics[1].code
  end
  assert(applied, "no fix-it quick fix among the code actions")
  log("applied the quick fix for " .. applied)

  -- The edited buffer (didChange, debounced) is analysed again: that finding is gone.
  local second = wait_current("the edited buffer")
  assert(#second.diagnostics < 12, "still " .. #second.diagnostics .. " diagnostics after the quick fix")

  -- Then every remaining fix at once, and save.
  local all = code_actions({ start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 0 } }, {},
    { "source.fixAll" })
  assert(#all == 1, "expected one fix-all action, got " .. #all)
  vim.lsp.util.apply_workspace_edit(all[1].edit, client.offset_encoding)
  vim.cmd("silent write")
  local third = wait_current("the saved file")
  log(#third.diagnostics .. " diagnostics after the fixes (the CLI leaves those without a fix-it)")

  local mine, theirs = read(file), read(ref)
  if mine ~= theirs then
    vim.fn.writefile(vim.split(mine, "\n"), dir .. "/editor.txt")
    error("the file written by Neovim differs from torchlint --fix:\n" ..
      vim.fn.system({ "diff", "-u", ref, file }))
  end
  log("the saved file is identical to torchlint --fix's")

  -- The CLI agrees with the last diagnostics.
  local after = vim.fn.json_decode(vim.fn.system({ torchlint, "--quiet", "--format=json", file }))
  assert(#after.findings == #third.diagnostics, "CLI: " .. #after.findings .. " findings after the fixes, LSP: " ..
    #third.diagnostics)
  vim.fn.delete(dir, "rf")
end

local ok, err = xpcall(main, debug.traceback)
if ok then
  log("PASS")
  vim.cmd("qall!")
else
  log("FAIL: " .. tostring(err))
  vim.cmd("cquit 1")
end
