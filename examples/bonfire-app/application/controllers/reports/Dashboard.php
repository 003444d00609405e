<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Reports dashboard: home of the admin "reports" context, listing the
 * reports that the modules contribute.
 */
class Dashboard extends CI_Controller
{
    public function index()
    {
        $this->load->view('reports/dashboard');
    }
}
