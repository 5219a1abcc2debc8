;;; noalloc-eglot.el --- noalloc-ls through Eglot  -*- lexical-binding: t; -*-

;; Load this from your init file (or copy it there). The Emacs test in CI
;; (editors/emacs/test.el) loads this very file.
;;
;; Eglot talks to one server per major mode and project, so this makes noalloc-ls
;; the server of `rust-mode' (and `rust-ts-mode') buffers.  editors/README.md shows how
;; to keep rust-analyzer as well.

(require 'eglot)
(require 'project)

(defvar noalloc-eglot-program (or (getenv "NOALLOC_LS") "noalloc-ls")
  "The noalloc-ls binary: a name on `exec-path' or an absolute file name.")

(defvar noalloc-eglot-settings '(:severity "warning")
  "The server's settings (the VS Code extension's `noalloc.*' without the prefix),
e.g. (:severity \"error\" :allow \"noalloc.allow\" :lineOnly [\"debug\"]).")

(add-to-list 'eglot-server-programs
             `((rust-mode rust-ts-mode)
               . (,noalloc-eglot-program :initializationOptions ,noalloc-eglot-settings)))

;; The same settings answer `workspace/configuration' and go in
;; `workspace/didChangeConfiguration' (M-x eglot-signal-didChangeConfiguration).
(setq-default eglot-workspace-configuration `(:noalloc ,noalloc-eglot-settings))

(defun noalloc-eglot-cargo-project (dir)
  "A project rooted at the nearest Cargo.toml above DIR, for crates outside VCS.
Appended to `project-find-functions', so a VC root still wins when there is one."
  (when-let ((root (locate-dominating-file dir "Cargo.toml")))
    (cons 'transient root)))
(add-hook 'project-find-functions #'noalloc-eglot-cargo-project 90)

(add-hook 'rust-mode-hook #'eglot-ensure)

(provide 'noalloc-eglot)
;;; noalloc-eglot.el ends here
