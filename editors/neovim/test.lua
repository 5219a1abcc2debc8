-- Headless Neovim test of the documented set-up (noalloc.lua): open the fixture's
-- src/lib.rs, wait for noalloc's diagnostic on the allocating line, check its
-- related information, apply the "Insert a noalloc exemption" code action, :write,
-- and wait for the diagnostic to go. Run by run-test.sh; results to $NOALLOC_TEST_OUT.
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local out = assert(io.open(assert(vim.env.NOALLOC_TEST_OUT, 'NOALLOC_TEST_OUT unset'), 'w'))
local timeout = tonumber(vim.env.NOALLOC_TEST_TIMEOUT_MS or '120000')
local passed, failed = 0, 0

local function say(line)
  out:write(line .. '\n')
  out:flush()
end
local function check(name, ok, detail)
  if ok then
    passed = passed + 1
    say('ok - ' .. name)
  else
    failed = failed + 1
    say('not ok - ' .. name .. (detail and (': ' .. detail) or ''))
  end
  return ok
end
local function finish()
  say(string.format('neovim: %d passed, %d failed', passed, failed))
  out:close()
  if failed == 0 then vim.cmd('qall!') else vim.cmd('cquit 1') end
end

vim.cmd('filetype on')
dofile(here .. '/noalloc.lua')

local function ours(buf)
  return vim.tbl_filter(function(d) return d.source == 'noalloc' end, vim.diagnostic.get(buf))
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  check('the buffer is Rust', vim.bo[buf].filetype == 'rust', vim.bo[buf].filetype)
  local attached = vim.wait(30000, function() return #vim.lsp.get_clients({ bufnr = buf, name = 'noalloc' }) > 0 end, 50)
  if not check('noalloc-ls attached to the buffer', attached) then return finish() end

  local t0 = vim.uv.hrtime()
  local got = vim.wait(timeout, function() return #ours(buf) > 0 end, 100)
  if not check('a noalloc diagnostic arrives', got, 'none after ' .. timeout .. ' ms') then return finish() end
  say(string.format('# first diagnostics after %d ms', (vim.uv.hrtime() - t0) / 1e6))

  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local target
  for i, l in ipairs(lines) do
    if l:find('String::from', 1, true) then target = i - 1 end
  end
  local d
  for _, x in ipairs(ours(buf)) do
    if x.lnum == target then d = x end
  end
  for _, x in ipairs(ours(buf)) do
    say(string.format('# diagnostic %d:%d %s [%s] %s', x.lnum + 1, x.col + 1, vim.diagnostic.severity[x.severity], tostring(x.code), x.message))
  end
  if not check('the diagnostic is on the String::from line', d ~= nil, 'line ' .. tostring(target and target + 1)) then return finish() end
  check('it is a warning (the default severity)', d.severity == vim.diagnostic.severity.WARN, tostring(d.severity))
  check('its code is "allocation"', d.code == 'allocation', tostring(d.code))
  check('its message names the allocation', d.message:find('String::from', 1, true) ~= nil, d.message)
  local lsp = d.user_data and d.user_data.lsp or {}
  local related = lsp.relatedInformation or {}
  check('related information starts at the root', related[1] ~= nil and related[1].message:match('^root') ~= nil and related[1].message:find('greet', 1, true) ~= nil,
    vim.inspect(related[1] and related[1].message))

  -- The quick fix, through the ordinary code-action path.
  vim.api.nvim_win_set_cursor(0, { target + 1, d.col })
  local titles = {}
  vim.lsp.buf.code_action({
    apply = true,
    context = { only = { 'quickfix' } },
    filter = function(a)
      table.insert(titles, a.title)
      return a.title:find('^Insert a noalloc exemption') ~= nil
    end,
  })
  local applied = vim.wait(15000, function()
    return (vim.api.nvim_buf_get_lines(buf, target, target + 1, false)[1] or ''):find('noalloc:exempt', 1, true) ~= nil
  end, 50)
  if not check('the exemption quick fix edits the line', applied, 'actions: ' .. table.concat(titles, ' | ')) then return finish() end
  say('# ' .. vim.api.nvim_buf_get_lines(buf, target, target + 1, false)[1])
  vim.cmd('write')

  local file = vim.api.nvim_buf_get_name(buf)
  local disk = table.concat(vim.fn.readfile(file), '\n')
  check('the written file holds the exemption', disk:find('String::from("hello"); // noalloc:exempt ', 1, true) ~= nil, disk)
  local function on_target()
    for _, x in ipairs(ours(buf)) do
      if x.lnum == target then return true end
    end
    return false
  end
  local gone = vim.wait(timeout, function() return not on_target() end, 100)
  check('the diagnostic goes away', gone, vim.inspect(vim.tbl_map(function(x) return x.message end, ours(buf))))
  -- A fresh `noalloc-ls --check` of the written file agrees.
  local res = vim.system({ vim.env.NOALLOC_LS, '--check', vim.fn.getcwd(), '--message-format', 'short', '--color', 'never' }, { text = true }):wait(timeout)
  check('noalloc-ls --check of the written file agrees: clean (exit 0)', res.code == 0, tostring(res.code) .. ': ' .. (res.stdout or '') .. (res.stderr or ''))
  finish()
end

vim.api.nvim_create_autocmd('VimEnter', {
  once = true,
  callback = function()
    local ok, err = pcall(run)
    if not ok then
      check('the test ran without a Lua error', false, tostring(err))
      finish()
    end
  end,
})
