<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Gallery, admin "reports" context: admin/reports/gallery shows storage use.
 */
class Reports extends MX_Controller
{
    public function index()
    {
        $this->load->model('photo_model');
        $this->load->view('reports/index', array('usage' => $this->photo_model->storage_usage()));
    }
}
