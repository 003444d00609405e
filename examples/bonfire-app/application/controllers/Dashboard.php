<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Dashboard: landing page of the admin area (SITE_AREA).
 */
class Dashboard extends CI_Controller
{
    public function index()
    {
        $this->load->view('dashboard/index');
    }
}
