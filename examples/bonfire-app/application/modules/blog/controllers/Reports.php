<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Blog, admin "reports" context: admin/reports/blog shows reading statistics.
 */
class Reports extends MX_Controller
{
    public function index()
    {
        $this->load->model('post_model');
        $this->load->view('reports/index', array('views' => $this->post_model->view_counts()));
    }
}
