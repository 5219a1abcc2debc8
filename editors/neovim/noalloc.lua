-- noalloc for Neovim 0.11+ (vim.lsp.config), next to rust-analyzer.
-- Put this in your init.lua, or `dofile` it from there. The Neovim test in CI
-- (editors/neovim/test.lua) loads this very file.
vim.lsp.config('noalloc', {
  -- NOALLOC_LS lets the tests point at a build; normally `noalloc-ls` on PATH.
  cmd = { vim.env.NOALLOC_LS or 'noalloc-ls' },
  filetypes = { 'rust' },
  root_markers = { 'Cargo.toml' },
  -- The same settings as the VS Code extension's `noalloc.*` (see editors/README.md).
  init_options = {
    severity = 'warning',
    -- allow = 'noalloc.allow', lineOnly = { 'debug' }, scratch = { 'app::Scratch' },
  },
  settings = { noalloc = { severity = 'warning' } },
})
-- rust_analyzer's config comes from nvim-lspconfig; without it, enable only noalloc.
vim.lsp.enable('noalloc')
