<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * API status: a small JSON document for monitoring (api/status, health).
 */
class Status extends CI_Controller
{
    public function index()
    {
        $this->output
            ->set_content_type('application/json')
            ->set_output(json_encode(array('status' => 'ok', 'time' => time())));
    }
}
