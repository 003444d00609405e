;;; eglot-driver.el --- drive ci-routes' server from batch Emacs as README's Eglot set-up starts it -*- lexical-binding: t -*-
;;
;;   emacs --batch --eval '(package-activate-all)' -l <snippet.el> -l eglot-driver.el
;;
;; The snippet is loaded as a user's init file would be (after the packages are activated, as
;; Emacs does at start-up); the driver then opens files as a user would.  `eglot-ensure' connects
;; from `post-command-hook', which batch Emacs never runs: the driver runs it after each visit,
;; as the command loop would.
;;
;; Env: CI_FILE (a route file: must get the snippet's mode and a ci-routes server; waits for its
;; diagnostics), CI_ALSO_SAME (a route file that must join that server), CI_ALSO_OTHER (a PHP file
;; that must stay in `php-mode' without it), CI_MIN_DIAGNOSTICS, CI_OUT, CI_STEP_S, CI_TOTAL_S.
;; Exit: 0 ok, 1 failure, 2 timeout, 3 watchdog.

(load (expand-file-name "driver-common.el" (file-name-directory load-file-name)) nil t)

(defvar drv-file (expand-file-name (drv-env "CI_FILE" "")))
(defvar drv-also-same (let ((f (drv-env "CI_ALSO_SAME" nil))) (and f (expand-file-name f))))
(defvar drv-also-other (let ((f (drv-env "CI_ALSO_OTHER" nil))) (and f (expand-file-name f))))
(defvar drv-min-diags (string-to-number (drv-env "CI_MIN_DIAGNOSTICS" "0")))
(defvar drv-publishes nil "Alist of (FILE . DIAGNOSTICS), newest first.")

;; Test settings, not the set-up's: connect synchronously so that a server dying during
;; initialize is an error here rather than a sentinel killing batch Emacs; never reconnect.
(setq eglot-sync-connect drv-step
      eglot-connect-timeout drv-step
      eglot-autoreconnect nil)

;; The diagnostics as they arrive, before Flymake.
(with-eval-after-load 'eglot
  (cl-defmethod eglot-handle-notification :before
    (_server (_method (eql textDocument/publishDiagnostics)) &key uri diagnostics &allow-other-keys)
    (push (cons (if (fboundp 'eglot-uri-to-path) (eglot-uri-to-path uri) (eglot--uri-to-path uri)) diagnostics)
          drv-publishes)))

(defun drv-visit (file)
  "Visit FILE as a user would: open it, then let the command loop's end run."
  (let ((buffer (find-file-noselect file)))
    (with-current-buffer buffer (run-hooks 'post-command-hook))
    buffer))

(defun drv-server (buffer)
  (with-current-buffer buffer
    (and (fboundp 'eglot-current-server) (bound-and-true-p eglot--managed-mode) (eglot-current-server))))

(defun drv-describe (buffer)
  (with-current-buffer buffer
    (let ((server (drv-server buffer)))
      (list (cons "mode" (symbol-name major-mode))
            (cons "managed" (if server t :json-false))
            (cons "server" (and server (format "%s" (jsonrpc-name server))))
            (cons "project" (and server (expand-file-name (project-root (eglot--project server)))))
            (cons "command" (and server (vconcat (process-command (jsonrpc--process server)))))))))

(defun drv-main ()
  ;; 1. the route file: the snippet's mode, then a server
  (let* ((buffer (drv-visit drv-file))
         (server (progn (drv-wait "the route file's server" (lambda () (drv-server buffer)))
                        (drv-server buffer))))
    (drv-put "file" (drv-describe buffer))
    ;; 2. its diagnostics
    (drv-wait "diagnostics"
              (lambda () (let ((p (assoc drv-file drv-publishes)))
                           (and p (>= (length (cdr p)) drv-min-diags)))))
    (drv-put "diagnostics"
             (vconcat (mapcar (lambda (d) (list (cons "code" (plist-get d :code))
                                                (cons "line" (plist-get (plist-get (plist-get d :range) :start) :line))
                                                (cons "character" (plist-get (plist-get (plist-get d :range) :start) :character))))
                              (cdr (assoc drv-file drv-publishes)))))
    ;; 3. another route file joins the same server
    (when drv-also-same
      (let ((other (drv-visit drv-also-same)))
        (drv-wait "the second route file's server" (lambda () (drv-server other)))
        (drv-put "also_same" (append (drv-describe other)
                                     (list (cons "same_server" (if (eq (drv-server other) server) t :json-false)))))))
    ;; 4. another PHP file is left to php-mode's own server (none here)
    (when drv-also-other
      (let ((other (drv-visit drv-also-other)))
        (accept-process-output nil 0.5)
        (drv-put "also_other" (drv-describe other))))
    ;; 5. shut down
    (eglot-shutdown server nil drv-step)
    (drv-put "running_after_shutdown" (if (jsonrpc-running-p server) t :json-false))
    (if drv-errors 1 0)))

(drv-finish
 (condition-case err
     (drv-main)
   (drv-timeout (push (format "%s" (cadr err)) drv-errors) 2)
   (error (push (format "%S" err) drv-errors) 1)))
