-- Drives ci-routes' language server from headless Neovim (0.7.2 or newer) as a user's set-up
-- starts it: Neovim runs with a README.md snippet as its init file, so opening a PHP file must
-- start the server and attach the buffer by itself. Writes what the editor received as JSON.
-- Run: nvim --headless -u <snippet.lua> -i NONE -n -c 'luafile nvim-driver.lua' -c 'cquit 99'
-- Environment: CI_CLIENT (the client's name in the snippet), CI_FILE (opened first; the
-- requests are asked in it), CI_ALSO (JSON list of files opened after it, each checked to
-- attach), CI_OUT, CI_REQUESTS (JSON list of {key, method, line, character}),
-- CI_MIN_DIAGNOSTICS, CI_STEP_MS, CI_TOTAL_MS.
-- Exit: 0 ok, 1 a step failed, 2 a step timed out, 3 the watchdog fired.

local uv = vim.uv or vim.loop
local started = uv.hrtime()
local function elapsed() return math.floor((uv.hrtime() - started) / 1e6) end
local function env(name, default)
  local v = os.getenv(name)
  if v == nil or v == '' then return default end
  return v
end

local client_name = env('CI_CLIENT', 'ci-routes')
local file = vim.fn.fnamemodify(env('CI_FILE', ''), ':p')
local also = vim.json.decode(env('CI_ALSO', '[]'))
local out_path = env('CI_OUT', 'nvim-result.json')
local requests = vim.json.decode(env('CI_REQUESTS', '[]'))
local min_diags = tonumber(env('CI_MIN_DIAGNOSTICS', '0'))
-- Deadlines that catch a hang, not speed requirements: on a loaded machine (two thirds of the
-- CPU taken by the hypervisor) starting the server alone took over 8 s.
local step_ms = tonumber(env('CI_STEP_MS', '30000'))
local total_ms = tonumber(env('CI_TOTAL_MS', '120000'))

local report = { nvim = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor), steps = vim.empty_dict(), errors = {}, timings_ms = vim.empty_dict(), attached = vim.empty_dict() }
local done = false
local publishes = {} -- uri -> the last publishDiagnostics params for it

local function finish(code)
  if done then return end
  done = true
  report.exit_code = code
  report.timings_ms.total = elapsed()
  local f = io.open(out_path, 'w')
  if f then f:write(vim.json.encode(report), '\n'); f:close() end
  vim.cmd(code == 0 and 'qall!' or ('cquit ' .. code))
end

-- The watchdog fires even while vim.wait() blocks; an uncaught error must never leave nvim running.
local watchdog = uv.new_timer()
watchdog:start(total_ms, 0, function()
  vim.schedule(function() table.insert(report.errors, 'watchdog fired'); finish(3) end)
  uv.new_timer():start(2000, 0, function() os.exit(3) end)
end)

local function wait_for(what, cond)
  local t0 = elapsed()
  local ok = vim.wait(step_ms, cond, 10)
  report.timings_ms[what] = elapsed() - t0
  if not ok then error({ timeout = true, msg = 'timed out waiting for ' .. what }) end
end

-- Every client the snippet attached to the buffer under its name (0.10+ get_clients, else buf_get_clients).
local function our_client(bufnr)
  local list = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(list) do
    if c.name == client_name then return c end
  end
  return nil
end

-- The snippet makes the clients: diagnostics are seen through the default handler, wrapped.
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  if result and result.uri then publishes[result.uri] = result end
  return publish(err, result, ctx, config)
end

-- Opens PATH; waits until the snippet attached a client of its name and it is initialized.
local function open(path, key)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  local entry = { file = path, filetype = vim.bo[bufnr].filetype }
  report.attached[key] = entry
  wait_for('attach ' .. key, function() return our_client(bufnr) ~= nil end)
  local client = our_client(bufnr)
  wait_for('initialize ' .. key, function()
    local c = vim.lsp.get_client_by_id(client.id)
    return c == nil or c.initialized
  end)
  if not vim.lsp.get_client_by_id(client.id) then error('the server exited during initialize') end
  entry.client_id = client.id
  entry.root_dir = client.config.root_dir
  entry.workspace_folders = client.workspace_folders or client.config.workspace_folders
  return bufnr, client
end

local function main()
  local bufnr, client = open(file, 'file')
  local uri = vim.uri_from_bufnr(bufnr)
  wait_for('diagnostics', function()
    return vim.lsp.get_client_by_id(client.id) == nil or (publishes[uri] ~= nil and #vim.diagnostic.get(bufnr) >= min_diags)
  end)
  if not vim.lsp.get_client_by_id(client.id) then error('the server exited before publishing diagnostics') end
  local diags = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(diags, { code = d.code, lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, severity = d.severity, message = d.message })
  end
  report.steps.diagnostics = diags

  local failed = false
  for _, r in ipairs(requests) do
    local params = { textDocument = { uri = uri }, position = { line = r.line, character = r.character } }
    if r.method == 'textDocument/completion' then params.context = { triggerKind = 1 } end
    local ok, res, err = pcall(vim.lsp.buf_request_sync, bufnr, r.method, params, step_ms)
    if not ok or not res then
      report.steps[r.key] = { error = tostring(ok and err or res) }
      failed = true
    else
      local entry = res[client.id] or {}
      report.steps[r.key] = { result = entry.result, error = entry.err or entry.error }
      if entry.err or entry.error then failed = true end
    end
  end

  for i, path in ipairs(also) do
    local other = open(vim.fn.fnamemodify(path, ':p'), 'also' .. i)
    local other_uri = vim.uri_from_bufnr(other)
    wait_for('diagnostics also' .. i, function() return publishes[other_uri] ~= nil end)
  end

  local ids = {}
  for _, entry in pairs(report.attached) do ids[entry.client_id] = true end
  for id in pairs(ids) do vim.lsp.stop_client(id) end
  local function all_gone()
    for id in pairs(ids) do
      if vim.lsp.get_client_by_id(id) then return false end
    end
    return true
  end
  if not vim.wait(step_ms, all_gone, 10) then
    for id in pairs(ids) do vim.lsp.stop_client(id, true) end
    table.insert(report.errors, 'server did not exit after shutdown')
    failed = true
  end
  return failed and 1 or 0
end

local ok, res = xpcall(main, function(e)
  if type(e) == 'table' then return e end
  return { msg = tostring(e), traceback = debug.traceback() }
end)
watchdog:stop()
if ok then finish(res) else
  table.insert(report.errors, res.msg)
  finish(res.timeout and 2 or 1)
end
