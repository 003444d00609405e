<?php
defined('BASEPATH') OR exit('No direct script access allowed');

/**
 * Gallery, admin "content" context: admin/content/gallery[/method/...].
 */
class Content extends MX_Controller
{
    public function index()
    {
        $this->load->model('album_model');
        $this->load->view('content/index', array('albums' => $this->album_model->find_all()));
    }

    public function upload()
    {
        $this->load->library('upload', array('upload_path' => FCPATH . 'uploads/gallery/'));
        $this->load->view('content/upload');
    }
}
