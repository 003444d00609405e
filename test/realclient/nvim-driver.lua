-- Drives ci-routes' language server from headless Neovim (0.7.2 or newer) and writes what the
-- editor received as JSON. Run: nvim --headless -u NONE -i NONE -n -c 'luafile nvim-driver.lua' -c 'cquit 99'
-- Environment: CI_CMD (JSON array), CI_FILE, CI_ROOT, CI_OUT, CI_REQUESTS (JSON list of
-- {key, method, line, character}), CI_MIN_DIAGNOSTICS, CI_STEP_MS, CI_TOTAL_MS.
-- Exit: 0 ok, 1 a step failed, 2 a step timed out, 3 the watchdog fired.

local uv = vim.loop
local started = uv.hrtime()
local function elapsed() return math.floor((uv.hrtime() - started) / 1e6) end
local function env(name, default)
  local v = os.getenv(name)
  if v == nil or v == '' then return default end
  return v
end

local cmd = vim.json.decode(env('CI_CMD', '[]'))
local file = vim.fn.fnamemodify(env('CI_FILE', ''), ':p')
local root = vim.fn.fnamemodify(env('CI_ROOT', '.'), ':p'):gsub('/$', '')
local out_path = env('CI_OUT', 'nvim-result.json')
local requests = vim.json.decode(env('CI_REQUESTS', '[]'))
local min_diags = tonumber(env('CI_MIN_DIAGNOSTICS', '0'))
-- Deadlines that catch a hang, not speed requirements: on a loaded machine (two thirds of the
-- CPU taken by the hypervisor) starting the server alone took over 8 s.
local step_ms = tonumber(env('CI_STEP_MS', '30000'))
local total_ms = tonumber(env('CI_TOTAL_MS', '120000'))

local report = { steps = vim.empty_dict(), errors = {}, timings_ms = vim.empty_dict() }
local done = false
local server_exit = nil
local last_publish = nil

local function finish(code)
  if done then return end
  done = true
  report.exit_code = code
  report.server_exit = server_exit
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

local function main()
  local client_id = vim.lsp.start_client({
    name = 'ci-routes',
    cmd = cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = 'root' } },
    flags = { exit_timeout = 1000, debounce_text_changes = 20 },
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        last_publish = result
        return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
      end,
    },
    on_exit = function(code, signal) server_exit = { code = code, signal = signal } end,
  })
  if not client_id then error('could not start the server') end
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local bufnr = vim.api.nvim_get_current_buf()
  vim.bo[bufnr].filetype = 'php'
  if not vim.lsp.buf_attach_client(bufnr, client_id) then error('could not attach the buffer') end
  wait_for('initialize', function()
    local c = vim.lsp.get_client_by_id(client_id)
    return server_exit ~= nil or (c ~= nil and c.initialized)
  end)
  if server_exit then error('server exited during initialize') end

  local uri = vim.uri_from_bufnr(bufnr)
  wait_for('diagnostics', function()
    return server_exit ~= nil or (last_publish ~= nil and last_publish.uri == uri and #vim.diagnostic.get(bufnr) >= min_diags)
  end)
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
      local entry = res[client_id] or {}
      report.steps[r.key] = { result = entry.result, error = entry.err or entry.error }
      if entry.err or entry.error then failed = true end
    end
  end

  vim.lsp.stop_client(client_id)
  if not vim.wait(step_ms, function() return server_exit ~= nil end, 10) then
    vim.lsp.stop_client(client_id, true)
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
