;;; test.el --- headless Emacs + Eglot test of noalloc-eglot.el  -*- lexical-binding: t; -*-

;; emacs --batch -l test.el FIXTURE-DIR   (run by run-test.sh; not with -Q, which
;; skips Debian's site-start and so the elpa load path).  Opens src/lib.rs, waits
;; for noalloc's diagnostic on the allocating line, applies the "Insert a noalloc
;; exemption" code action through Eglot, saves, and waits for the diagnostic to go.

(require 'cl-lib)
(require 'subr-x)
(require 'flymake)
(unless (require 'rust-mode nil t)
  ;; Emacs 28 has no rust-mode of its own; a minimal one is enough for Eglot.
  (define-derived-mode rust-mode prog-mode "Rust")
  (add-to-list 'auto-mode-alist '("\\.rs\\'" . rust-mode)))

(defvar noalloc-test-here (file-name-directory (or load-file-name buffer-file-name)))
(defvar noalloc-test-passed 0)
(defvar noalloc-test-failed 0)
(defvar noalloc-test-timeout
  (/ (string-to-number (or (getenv "NOALLOC_TEST_TIMEOUT_MS") "120000")) 1000.0))

(defun noalloc-test-say (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defun noalloc-test-check (name ok &optional detail)
  (if ok
      (progn (cl-incf noalloc-test-passed) (noalloc-test-say "ok - %s" name))
    (cl-incf noalloc-test-failed)
    (noalloc-test-say "not ok - %s%s" name (if detail (format ": %s" detail) "")))
  ok)

(defun noalloc-test-finish ()
  (noalloc-test-say "emacs: %d passed, %d failed" noalloc-test-passed noalloc-test-failed)
  (kill-emacs (if (= noalloc-test-failed 0) 0 1)))

(defun noalloc-test-wait (secs pred)
  "Run the event loop until PRED is non-nil or SECS pass; PRED's value."
  (let ((end (+ (float-time) secs)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) end))
      (accept-process-output nil 0.1))
    v))

(defun noalloc-test-diags-on-line (line)
  "Eglot's noalloc diagnostics on LINE (1-based) of the current buffer."
  (cl-remove-if-not
   (lambda (d)
     (and (string-prefix-p "noalloc" (flymake-diagnostic-text d))
          (= line (line-number-at-pos (flymake-diagnostic-beg d)))))
   (flymake-diagnostics)))

(defun noalloc-test-run (fixture)
  (load (expand-file-name "noalloc-eglot.el" noalloc-test-here) nil t)
  (find-file (expand-file-name "src/lib.rs" fixture))
  (noalloc-test-check "the buffer is in rust-mode" (derived-mode-p 'rust-mode) major-mode)
  ;; `eglot-ensure' waits for a command loop that batch mode does not run.
  (unless (eglot-current-server) (apply #'eglot (eglot--guess-contact)))
  (unless (noalloc-test-check "Eglot connected noalloc-ls" (eglot-current-server))
    (noalloc-test-finish))
  (noalloc-test-say "# project root %s" (project-root (eglot--project (eglot-current-server))))
  (flymake-start)
  (let* ((line (save-excursion (goto-char (point-min)) (search-forward "String::from") (line-number-at-pos)))
         (t0 (float-time))
         (diags (noalloc-test-wait noalloc-test-timeout (lambda () (noalloc-test-diags-on-line line)))))
    (unless (noalloc-test-check "a noalloc diagnostic arrives on the String::from line" diags
                                (format "none after %ss; all: %S" noalloc-test-timeout
                                        (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))
      (noalloc-test-finish))
    (noalloc-test-say "# first diagnostics after %.1f s: %s" (- (float-time) t0) (flymake-diagnostic-text (car diags)))
    (noalloc-test-check "it is a warning" (eq (flymake-diagnostic-type (car diags)) 'eglot-warning)
                        (flymake-diagnostic-type (car diags)))
    (noalloc-test-check "its text names the code and the allocation"
                        (string-match-p "\\[allocation\\].*String::from" (flymake-diagnostic-text (car diags)))
                        (flymake-diagnostic-text (car diags)))
    ;; The quick fix, through Eglot's own code-action path.
    (goto-char (flymake-diagnostic-beg (car diags)))
    (let* ((actions (eglot-code-actions (line-beginning-position) (line-end-position) "quickfix"))
           (fix (cl-find-if (lambda (a) (string-prefix-p "Insert a noalloc exemption" (plist-get a :title))) actions)))
      (unless (noalloc-test-check "Eglot offers \"Insert a noalloc exemption\"" fix
                                  (mapcar (lambda (a) (plist-get a :title)) actions))
        (noalloc-test-finish))
      (eglot--read-execute-code-action (list fix) (eglot-current-server) "quickfix"))
    (let ((text (buffer-substring-no-properties (line-beginning-position) (line-end-position))))
      (noalloc-test-say "# %s" text)
      (noalloc-test-check "the action put the exemption on the line" (string-match-p "noalloc:exempt" text) text))
    (save-buffer)
    (let* ((file buffer-file-name)
           (disk (with-temp-buffer (insert-file-contents file) (buffer-string))))
      (noalloc-test-check "the saved file holds the exemption"
                          (string-match-p "String::from(\"hello\"); // noalloc:exempt " disk) disk))
    (noalloc-test-check "the diagnostic goes away"
                        (noalloc-test-wait noalloc-test-timeout (lambda () (null (noalloc-test-diags-on-line line))))
                        (mapcar #'flymake-diagnostic-text (flymake-diagnostics)))
    ;; A fresh `noalloc-ls --check' of the saved file agrees.
    (let* ((out (generate-new-buffer " *check*"))
           (code (call-process (getenv "NOALLOC_LS") nil (list out nil) nil
                               "--check" (expand-file-name fixture) "--message-format" "short" "--color" "never")))
      (noalloc-test-check "noalloc-ls --check of the saved file agrees: clean (exit 0)" (eql code 0)
                          (format "%s: %s" code (with-current-buffer out (buffer-string)))))
    (eglot-shutdown (eglot-current-server))
    (noalloc-test-finish)))

(condition-case err
    (noalloc-test-run (expand-file-name (car command-line-args-left)))
  (error (noalloc-test-check "the test ran without a Lisp error" nil (error-message-string err))
         (noalloc-test-finish)))
