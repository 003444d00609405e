;;; lsp-mode-driver.el --- drive ci-routes' server from batch Emacs as README's lsp-mode set-up starts it -*- lexical-binding: t -*-
;;
;;   emacs --batch --eval '(package-activate-all)' -l <snippet.el> -l lsp-mode-driver.el
;;
;; The snippet is loaded as a user's init file would be; the driver opens a route file and runs
;; `lsp' as a user would, answering lsp-mode's one question (the project root) beforehand.
;;
;; Env: CI_FILE (a route file), CI_ROOT (the root the user chooses: the folder holding
;; application/), CI_MIN_DIAGNOSTICS, CI_OUT, CI_STEP_S, CI_TOTAL_S.
;; Exit: 0 ok, 1 failure, 2 timeout, 3 watchdog.

(require 'cl-lib)
(require 'json)

(defun drv-env (name default)
  (let ((v (getenv name))) (if (and v (not (string-empty-p v))) v default)))

(defvar drv-file (expand-file-name (drv-env "CI_FILE" "")))
(defvar drv-root (file-name-as-directory (expand-file-name (drv-env "CI_ROOT" ""))))
(defvar drv-min-diags (string-to-number (drv-env "CI_MIN_DIAGNOSTICS" "0")))
(defvar drv-out (drv-env "CI_OUT" "lsp-mode-result.json"))
;; Deadlines that catch a hang, not speed requirements.
(defvar drv-step (string-to-number (drv-env "CI_STEP_S" "30")))
(defvar drv-total (string-to-number (drv-env "CI_TOTAL_S" "120")))

(defvar drv-t0 (float-time))
(defun drv-ms () (round (* 1000 (- (float-time) drv-t0))))
(defvar drv-report (list (cons "emacs" emacs-version)))
(defvar drv-errors nil)
(defvar drv-finished nil)

(defun drv-put (key value) (setq drv-report (append drv-report (list (cons key value)))))

(defun drv-finish (code)
  (unless drv-finished
    (setq drv-finished t)
    (drv-put "errors" (vconcat (reverse drv-errors)))
    (drv-put "exit_code" code)
    (drv-put "total_ms" (drv-ms))
    (with-temp-file drv-out (insert (json-encode drv-report) "\n"))
    (kill-emacs code)))

(run-at-time drv-total nil (lambda () (push (format "watchdog: %ss" drv-total) drv-errors) (drv-finish 3)))

(define-error 'drv-timeout "driver timeout")
(defun drv-wait (what pred)
  "Pump the event loop until PRED is non-nil, at most `drv-step' seconds."
  (let ((start (float-time)))
    (while (and (not (funcall pred)) (< (- (float-time) start) drv-step))
      (accept-process-output nil 0.05))
    (or (funcall pred) (signal 'drv-timeout (list (format "timed out waiting for %s" what))))))

(require 'lsp-mode)
;; Test settings, not the set-up's: the session file in the test's home, no prompt on a server's exit.
(setq lsp-session-file (expand-file-name "lsp-session" (getenv "HOME"))
      lsp-restart 'ignore)
;; The answer to lsp-mode's question "which project root?".
(lsp-workspace-folders-add drv-root)

(defun drv-ci-routes-workspace ()
  (cl-find-if (lambda (w) (and (eq (lsp--client-server-id (lsp--workspace-client w)) 'ci-routes)
                               (eq (lsp--workspace-status w) 'initialized)))
              (lsp-workspaces)))

(defun drv-diagnostics ()
  (let ((table (lsp-diagnostics t)))
    (and table (gethash drv-file table))))

(defun drv-main ()
  (with-current-buffer (find-file-noselect drv-file)
    (drv-put "mode" (symbol-name major-mode))
    (lsp)
    (drv-wait "the ci-routes workspace" #'drv-ci-routes-workspace)
    (let ((ws (drv-ci-routes-workspace)))
      (drv-put "root" (lsp--workspace-root ws))
      (drv-put "servers" (vconcat (mapcar (lambda (w) (symbol-name (lsp--client-server-id (lsp--workspace-client w)))) (lsp-workspaces))))
      (drv-wait "diagnostics" (lambda () (>= (length (drv-diagnostics)) (max 1 drv-min-diags))))
      (drv-put "diagnostics" (vconcat (mapcar (lambda (d) (list (cons "code" (gethash "code" d))
                                                                (cons "line" (gethash "line" (gethash "start" (gethash "range" d))))))
                                              (drv-diagnostics))))
      ;; Notifications after the diagnostics (lsp-mode warns of any it does not know) arrive meanwhile.
      (accept-process-output nil 1)
      (lsp-workspace-shutdown ws))
    (if drv-errors 1 0)))

(drv-finish
 (condition-case err
     (drv-main)
   (drv-timeout (push (format "%s" (cadr err)) drv-errors) 2)
   (error (push (format "%S" err) drv-errors) 1)))
